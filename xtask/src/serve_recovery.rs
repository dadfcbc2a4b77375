//! `bench-serve`'s recovery figure (issue 37): the kube-apiserver killed (SIGKILL) for a few
//! seconds while one Service is deleted in etcd behind its back, then started again. Measured:
//! the time from the new apiserver's start to its `/readyz` ok, and to the last watch of `serve`
//! listed again (`kubectl_topo_last_sync_timestamp_seconds`, once `/metrics` shows every
//! watch's `kubectl_topo_watch_restarts_total` grown and the Service gone).

use std::io;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::live::{ControlPlane, etcd, with_dead};
use crate::serve_proc::Serve;

/// What [`measure`] saw.
pub struct Recovered {
    /// Seconds from the start of the new apiserver to its `/readyz` ok.
    pub restart: f64,
    /// Seconds from the start of the new apiserver to the last watch listed again, the deleted
    /// Service gone from `/metrics` (the watches list again as soon as it answers).
    pub fresh: f64,
    /// The exporter's staleness when the apiserver was back, seconds.
    pub stale_when_back: f64,
}

fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

fn value(metrics: &str, series: &str) -> Option<f64> {
    let prefix = format!("{series} ");
    metrics.lines().find_map(|l| l.strip_prefix(&prefix)).and_then(|v| v.trim().parse().ok())
}

fn relists(metrics: &str) -> [f64; 3] {
    ["nodes", "services", "endpointslices"].map(|r| {
        value(metrics, &format!("kubectl_topo_watch_restarts_total{{resource=\"{r}\"}}")).unwrap_or(0.0)
    })
}

/// `(namespace, name)` of the first Service with a verdict series in a scrape but
/// `default/kubernetes`, which the apiserver creates again when it starts.
fn some_service(metrics: &str) -> Option<(String, String)> {
    let lines = metrics.lines().filter(|l| l.starts_with("kubectl_topo_service_verdict{"));
    lines
        .filter_map(|line| {
            let label = |key: &str| {
                let start = line.find(&format!("{key}=\""))? + key.len() + 2;
                Some(line[start..].split('"').next()?.to_string())
            };
            Some((label("namespace")?, label("service")?))
        })
        .find(|(ns, name)| (ns.as_str(), name.as_str()) != ("default", "kubernetes"))
}

/// Kill the apiserver for `outage` seconds, delete a Service in etcd meanwhile, start it again.
pub async fn measure(plane: &mut ControlPlane, serve: &mut Serve, outage: u64) -> io::Result<Recovered> {
    let (_, metrics) = serve.get("/metrics")?;
    let (ns, name) = some_service(&metrics).ok_or_else(|| io::Error::other("no Service exported"))?;
    let gone = format!("namespace=\"{ns}\",service=\"{name}\",");
    let before = relists(&metrics);
    plane.kill_apiserver();
    let key = format!("/registry/services/specs/{ns}/{name}");
    if !etcd::delete_key(&plane.etcd_url, &key) {
        return Err(with_dead(plane, io::Error::other(format!("{key} not in etcd"))));
    }
    tokio::time::sleep(Duration::from_secs(outage)).await;
    let stale_when_back =
        now() - value(&serve.get("/metrics")?.1, "kubectl_topo_last_sync_timestamp_seconds").unwrap_or(0.0);
    let (restarting, start_unix) = (Instant::now(), now());
    plane.restart_apiserver(&[]).await;
    let restart = restarting.elapsed().as_secs_f64();
    loop {
        let (_, metrics) = serve.get("/metrics")?;
        let synced = value(&metrics, "kubectl_topo_last_sync_timestamp_seconds").unwrap_or(0.0);
        let relisted = relists(&metrics).iter().zip(before).all(|(n, b)| *n > b);
        // Every watch heard from since the new apiserver started (they list again as soon as it
        // answers, which may be before its /readyz says ok), and the Service gone.
        if relisted && synced >= start_unix && !metrics.contains(&gone) {
            return Ok(Recovered { restart, fresh: synced - start_unix, stale_when_back });
        }
        if restarting.elapsed() > Duration::from_secs(300) {
            let e =
                serve.why(&format!("not fresh 300 s after the apiserver started again (relists {before:?})"));
            return Err(with_dead(plane, e));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Its rows of the table.
pub fn print(r: &Recovered, outage: u64) {
    println!(
        "| apiserver killed for {outage} s (staleness then {:.0} s), a Service deleted in etcd meanwhile; restarted, ready after | {:.2} s | — |",
        r.stale_when_back, r.restart
    );
    println!(
        "| recovery: apiserver started again → every watch of `serve` listed again (the Service gone from `/metrics`) | **{:.2} s** | ≤ 5 s after ready |",
        r.fresh
    );
}
