//! `cargo xtask bench-serve`'s comparisons (issue 36): `serve` against what a platform team would
//! otherwise run or type on the same apiserver and cluster —
//!
//! - the JSON of the objects watched (`serve_json.rs`, the bench's own paged LIST; the
//!   steady-RSS goal is ≤ 0.1× of it) and `kubectl get nodes,services,endpointslices -A -o json`'s
//!   time (the ready-time goal is ≤ 0.5× of it), run last since it may not fit in memory;
//! - kube-state-metrics (built from the Go module proxy by `scripts/build-peers.sh`,
//!   `--resources=nodes,services,endpointslices`): time until its `/metrics` holds every Node and
//!   Service, steady RSS, CPU per EndpointSlice change, series exported;
//! - the load each puts on the apiserver while starting: LIST and WATCH requests for the three
//!   resources, counted by the apiserver itself (`apiserver_request_total`).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::measure::stderr_tail;
use crate::serve_json::JsonSize;

/// The resources both exporters watch.
const RESOURCES: [&str; 3] = ["nodes", "services", "endpointslices"];

/// `kubectl get nodes,services,endpointslices -A -o json` on the apiserver of `kubeconfig`: the
/// median seconds of three runs (one when the first took longer than a minute) and the bytes it
/// printed. A run that takes longer than [`KUBECTL_LIMIT`] is stopped and said so.
pub(crate) fn kubectl_get(kubectl: &Path, kubeconfig: &str) -> io::Result<(f64, u64)> {
    let out = tempfile::NamedTempFile::new()?;
    let mut times = Vec::new();
    while times.len() < 3 && times.iter().all(|t| *t < 60.0) {
        let started = Instant::now();
        let mut child = Command::new(kubectl)
            .args(["--kubeconfig", kubeconfig, "get", "nodes,services,endpointslices", "-A", "-o", "json"])
            .stdout(out.reopen()?)
            .stderr(Stdio::null())
            .spawn()?;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if started.elapsed() > KUBECTL_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                return Err(io::Error::other(format!("kubectl get stopped after {KUBECTL_LIMIT:?}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        times.push(started.elapsed().as_secs_f64());
        if !status.success() {
            return Err(io::Error::other(format!("kubectl get failed ({status})")));
        }
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], std::fs::metadata(out.path())?.len()))
}

/// The longest one `kubectl get` of the three kinds may take.
const KUBECTL_LIMIT: Duration = Duration::from_secs(600);

/// LIST requests the apiserver has served for [`RESOURCES`] so far and WATCH requests open on
/// them now, from its own metrics.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Requests {
    pub list: u64,
    pub watch: u64,
}

impl Requests {
    /// LISTs since `before`; WATCHes opened since (the gauge's growth).
    pub(crate) fn since(self, before: Requests) -> Requests {
        Requests {
            list: self.list.saturating_sub(before.list),
            watch: self.watch.saturating_sub(before.watch),
        }
    }
}

/// The apiserver's counters now (its `/metrics`, read with the admin client).
pub(crate) async fn requests(client: &kube::Client) -> io::Result<Requests> {
    let request = http::Request::get("/metrics").body(Vec::new()).map_err(io::Error::other)?;
    let text = client.request_text(request).await.map_err(io::Error::other)?;
    Ok(count_requests(&text))
}

/// LISTs served (`apiserver_request_total`, counted when a request ends) and WATCHes open
/// (`apiserver_longrunning_requests`: a watch is counted in the first only when it closes) for
/// [`RESOURCES`].
pub(crate) fn count_requests(metrics: &str) -> Requests {
    let mut counted = Requests::default();
    let wanted = |l: &&str| {
        l.starts_with("apiserver_request_total{") || l.starts_with("apiserver_longrunning_requests{")
    };
    for line in metrics.lines().filter(wanted) {
        let label = |key: &str| {
            let start = line.find(&format!(",{key}=\"")).or_else(|| line.find(&format!("{{{key}=\"")))?;
            let value = &line[start + key.len() + 3..];
            value.split('"').next()
        };
        if !label("resource").is_some_and(|r| RESOURCES.contains(&r)) {
            continue;
        }
        let Some(value) = line.rsplit_once(' ').and_then(|(_, v)| v.parse::<f64>().ok()) else { continue };
        let total = line.starts_with("apiserver_request_total{");
        match label("verb") {
            Some("LIST") if total => counted.list += value as u64,
            Some("WATCH") if !total => counted.watch += value as u64,
            _ => {}
        }
    }
    counted
}

/// kube-state-metrics running, killed when dropped.
pub(crate) struct Ksm {
    child: Child,
    log: PathBuf,
    pub port: u16,
}

impl Ksm {
    /// Start the binary of `scripts/build-peers.sh` on `kubeconfig`, watching [`RESOURCES`].
    pub(crate) fn start(binary: &Path, kubeconfig: &str, log: PathBuf) -> io::Result<Ksm> {
        let free =
            || -> io::Result<u16> { Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port()) };
        let (port, telemetry) = (free()?, free()?);
        let child = Command::new(binary)
            .arg(format!("--kubeconfig={kubeconfig}"))
            .arg(format!("--resources={}", RESOURCES.join(",")))
            .args(["--host=127.0.0.1", "--telemetry-host=127.0.0.1"])
            .arg(format!("--port={port}"))
            .arg(format!("--telemetry-port={telemetry}"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()?;
        Ok(Ksm { child, log, port })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    fn why(&mut self, what: &str) -> io::Error {
        let stderr = std::fs::read_to_string(&self.log).unwrap_or_default();
        let state = match self.child.try_wait() {
            Ok(Some(status)) => format!("kube-state-metrics exited ({status})"),
            _ => "kube-state-metrics still runs".to_string(),
        };
        io::Error::other(format!("{what}: {state}; its stderr ends:\n{}", stderr_tail(&stderr, 10)))
    }

    /// One `/metrics`, or why not.
    pub(crate) fn metrics(&mut self) -> io::Result<String> {
        crate::serve_proc::get(self.port, "/metrics")
            .map(|(_, body)| body)
            .ok_or_else(|| self.why("GET /metrics failed"))
    }

    /// Until `/metrics` holds an info series for every Node and Service (kube-state-metrics has no
    /// "listed everything" signal of its own), at most `limit`.
    pub(crate) fn until_complete(
        &mut self,
        nodes: usize,
        services: usize,
        limit: Duration,
    ) -> io::Result<()> {
        let started = Instant::now();
        loop {
            if self.child.try_wait()?.is_some() {
                return Err(self.why("not complete"));
            }
            let scrape = Instant::now();
            if let Some((200, body)) = crate::serve_proc::get(self.port, "/metrics") {
                let count = |prefix: &str| body.lines().filter(|l| l.starts_with(prefix)).count();
                if count("kube_node_info{") >= nodes && count("kube_service_info{") >= services {
                    return Ok(());
                }
            }
            if started.elapsed() > limit {
                return Err(self.why(&format!("not complete after {limit:?}")));
            }
            // At most half the time in scrapes: a 130,000-node `/metrics` takes a while to write.
            std::thread::sleep(scrape.elapsed().max(Duration::from_millis(50)));
        }
    }
}

impl Drop for Ksm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Series in one exposition: its lines that are neither comments nor blank.
pub(crate) fn series(metrics: &str) -> usize {
    metrics.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).count()
}

/// One exporter's figures on the loaded cluster.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exporter {
    /// Seconds from start to ready (`serve`: `/readyz` 200; kube-state-metrics: every Node and
    /// Service in `/metrics`).
    pub ready: f64,
    /// VmRSS 10 s after ready, kB.
    pub steady_kb: u64,
    /// Series in one `/metrics`.
    pub series: usize,
    /// CPU seconds per EndpointSlice change.
    pub cpu_per_change: f64,
    /// What it asked the apiserver for while starting.
    pub load: Requests,
}

/// The cluster both exporters watch, and the slice the CPU figure changes.
pub(crate) struct Cluster<'a> {
    pub kubeconfig: &'a str,
    /// `(namespace, service)` with a hinted slice.
    pub hinted: (&'a str, &'a str),
    pub updates: usize,
}

/// kube-state-metrics on `cluster`, measured as `serve` is.
pub(crate) fn kube_state_metrics(
    runtime: &tokio::runtime::Runtime,
    client: &kube::Client,
    cluster: &Cluster<'_>,
) -> io::Result<Exporter> {
    let binary = crate::common::script_path("scripts/build-peers.sh")?.join("kube-state-metrics");
    let log = Path::new(cluster.kubeconfig).with_file_name("bench-ksm.stderr");
    let before = runtime.block_on(requests(client))?;
    let started = Instant::now();
    let mut ksm = Ksm::start(&binary, cluster.kubeconfig, log)?;
    let (nodes, services) = runtime.block_on(counts(client))?;
    ksm.until_complete(nodes, services, Duration::from_secs(600))?;
    let ready = started.elapsed().as_secs_f64();
    let load = runtime.block_on(requests(client))?.since(before);
    std::thread::sleep(Duration::from_secs(10));
    let (steady_kb, _) = crate::serve_proc::rss(ksm.pid());
    let series = series(&ksm.metrics()?);
    let (ns, service) = cluster.hinted;
    let api = kube::Api::namespaced(client.clone(), ns);
    let cpu_per_change = runtime.block_on(async {
        let (slice, original, stripped) = crate::serve_change::hinted_slice(&api, service).await?;
        crate::serve_change::cpu_per_change(ksm.pid(), &api, &slice, [&stripped, &original], cluster.updates)
            .await
    })?;
    Ok(Exporter { ready, steady_kb, series, cpu_per_change, load })
}

/// Nodes and Services in the apiserver now (the recovery figure deletes one Service before).
async fn counts(client: &kube::Client) -> io::Result<(usize, usize)> {
    use k8s_openapi::api::core::v1::{Node, Service};
    let params = kube::api::ListParams::default();
    let nodes =
        kube::Api::<Node>::all(client.clone()).list_metadata(&params).await.map_err(io::Error::other)?;
    let services =
        kube::Api::<Service>::all(client.clone()).list_metadata(&params).await.map_err(io::Error::other)?;
    Ok((nodes.items.len(), services.items.len()))
}

/// The rows against the JSON of the objects watched (measured by the bench's own paged LIST) and
/// against `kubectl get`'s time, or why it has none.
fn print_kubectl(ours: &Exporter, json: &JsonSize, kubectl: Result<(f64, u64), String>) {
    let printed = match &kubectl {
        Ok((_, bytes)) => format!("; kubectl printed {:.1} MB", *bytes as f64 / 1e6),
        Err(_) => String::new(),
    };
    println!(
        "| steady RSS vs the JSON of the objects watched (as `kubectl get -o json` prints them: {:.1} MB; as listed, compact: {:.1} MB{printed}) | {:.0} MB | {:.0} MB | **{:.3}×** | ≤ 0.1× |",
        json.kubectl as f64 / 1e6,
        json.compact as f64 / 1e6,
        ours.steady_kb as f64 / 1024.0,
        json.kubectl as f64 / 1e6,
        ours.steady_kb as f64 * 1024.0 / json.kubectl as f64
    );
    match kubectl {
        Ok((get_secs, _)) => println!(
            "| time to ready vs `kubectl get nodes,services,endpointslices -A -o json` | {:.2} s | {get_secs:.2} s | **{:.2}×** | ≤ 0.5× |",
            ours.ready,
            ours.ready / get_secs
        ),
        Err(why) => {
            println!(
                "| `kubectl get nodes,services,endpointslices -A -o json` (run last) | — | failed: {why} | — | — |"
            )
        }
    }
}

/// `a / b` to two places, or `—` when `b` is too small to divide by (a CPU figure below the
/// kernel's 10 ms accounting tick over a short run).
fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 { format!("{:.2}×", a / b) } else { "—".to_string() }
}

/// The comparison rows: `serve` vs `kubectl get` (time, and RSS vs the JSON size) and vs
/// kube-state-metrics.
pub(crate) fn print(
    ours: &Exporter,
    json: &JsonSize,
    kubectl: Result<(f64, u64), String>,
    theirs: &Exporter,
) {
    let mb = |kb: u64| kb as f64 / 1024.0;
    println!("\n| `serve` against | `serve` | peer | ratio | goal |\n|---|---|---|---|---|");
    print_kubectl(ours, json, kubectl);
    println!(
        "| kube-state-metrics: time to ready (every Node and Service in `/metrics`) | {:.2} s | {:.2} s | {:.2}× | — |",
        ours.ready,
        theirs.ready,
        ours.ready / theirs.ready
    );
    println!(
        "| kube-state-metrics: steady RSS (10 s after ready) | {:.0} MB | {:.0} MB | **{:.2}×** | ≤ 0.5× |",
        mb(ours.steady_kb),
        mb(theirs.steady_kb),
        ours.steady_kb as f64 / theirs.steady_kb as f64
    );
    println!(
        "| kube-state-metrics: CPU per EndpointSlice change | {:.2} ms | {:.2} ms | **{}** | ≤ 0.5× |",
        ours.cpu_per_change * 1e3,
        theirs.cpu_per_change * 1e3,
        ratio(ours.cpu_per_change, theirs.cpu_per_change)
    );
    println!(
        "| kube-state-metrics: series exported | {} | {} | {:.2}× | — |",
        ours.series,
        theirs.series,
        ours.series as f64 / theirs.series as f64
    );
    println!(
        "| apiserver load while starting: LISTs served / WATCHes opened (nodes, services, endpointslices) | {} / {} | {} / {} | — | — |",
        ours.load.list, ours.load.watch, theirs.load.list, theirs.load.watch
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_three_resources_by_verb() {
        let text = "\
# HELP apiserver_request_total x
apiserver_request_total{code=\"200\",component=\"apiserver\",resource=\"nodes\",verb=\"LIST\",version=\"v1\"} 3
apiserver_request_total{code=\"200\",component=\"apiserver\",resource=\"services\",verb=\"WATCH\",version=\"v1\"} 7
apiserver_longrunning_requests{component=\"apiserver\",resource=\"services\",scope=\"cluster\",verb=\"WATCH\"} 2
apiserver_request_total{code=\"200\",component=\"apiserver\",resource=\"pods\",verb=\"LIST\",version=\"v1\"} 40
apiserver_request_total{code=\"200\",component=\"apiserver\",resource=\"endpointslices\",verb=\"LIST\",version=\"v1\"} 1
apiserver_request_total{code=\"200\",component=\"apiserver\",resource=\"nodes\",verb=\"GET\",version=\"v1\"} 9
";
        let counted = count_requests(text);
        assert_eq!((counted.list, counted.watch), (4, 2));
        assert_eq!(series(text), 6);
    }
}
