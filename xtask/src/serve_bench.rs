//! `cargo xtask bench-serve`: `kubectl topo serve` on the synthetic cluster loaded into the local
//! kube-apiserver — time to ready, steady RSS next to `check -A`'s peak RSS on the same cluster,
//! one scrape of `/metrics` with and without gzip (size received, median time), the latency from
//! an EndpointSlice update to the changed metric on `/metrics` (p50/p99/max), the CPU cost of a
//! change, and the recovery after the apiserver was down (`serve_recovery.rs`).

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

use crate::live::{self, ControlPlane};
use crate::measure::{Cmd, alone, mb};
use crate::plan::Size;
use crate::serve_change::{cpu_per_change, first_hinted, hinted_slice};
use crate::serve_peer;
use crate::serve_proc::{Serve, get_gzip, rss};

/// Σ of `kubectl_topo_hinted_endpoints` for one Service in a scrape (a substring search for the
/// Service's labels, then only the lines that hold them: a 15 MB scrape is read in milliseconds,
/// so the poll is the exporter's time, not the bench's).
pub(crate) fn hinted_total(metrics: &str, ns: &str, name: &str) -> i64 {
    let prefix = "kubectl_topo_hinted_endpoints{";
    let wanted = format!("namespace=\"{ns}\",service=\"{name}\",");
    metrics
        .match_indices(&wanted)
        .filter_map(|(at, _)| {
            let start = metrics[..at].rfind('\n').map_or(0, |n| n + 1);
            let end = metrics[at..].find('\n').map_or(metrics.len(), |n| at + n);
            let line = &metrics[start..end];
            line.starts_with(prefix).then(|| line.rsplit_once(' ')?.1.parse::<i64>().ok())?
        })
        .sum()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Scrapes of `/metrics` with and without gzip: the last plain answer, the median time of each
/// and the bytes received.
struct Scrapes {
    metrics: String,
    plain: f64,
    gzip: f64,
    gzip_bytes: usize,
}

/// `SCRAPES` plain and gzipped scrapes, alternating.
fn scrapes(serve: &mut Serve) -> io::Result<Scrapes> {
    const SCRAPES: usize = 5;
    let (mut plain, mut gzip, mut metrics, mut gzip_bytes) = (Vec::new(), Vec::new(), String::new(), 0);
    for _ in 0..SCRAPES {
        let started = Instant::now();
        metrics = serve.get("/metrics")?.1;
        plain.push(started.elapsed().as_secs_f64());
        let started = Instant::now();
        gzip_bytes = get_gzip(serve.port).ok_or_else(|| serve.why("no gzipped /metrics"))?;
        gzip.push(started.elapsed().as_secs_f64());
    }
    plain.sort_by(f64::total_cmp);
    gzip.sort_by(f64::total_cmp);
    Ok(Scrapes { metrics, plain: percentile(&plain, 0.5), gzip: percentile(&gzip, 0.5), gzip_bytes })
}

/// The benchmark; prints a Markdown table. `outage`: seconds the apiserver stays down for the
/// recovery figure.
pub fn run(name: &str, size: Size, updates: usize, outage: u64, topo: &Path) -> io::Result<()> {
    let plan = crate::plan::plan(size);
    let endpoints: usize = plan.services.iter().map(|s| s.endpoints.len()).sum();
    println!(
        "Cluster `{name}`: {} nodes, {} Services, {endpoints} endpoints, loaded straight into the apiserver.\n",
        plan.nodes.len(),
        plan.services.len()
    );
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repo").to_path_buf();
    // Generated into the apiserver object by object: no dump, never the whole cluster in memory
    // (the `ai` cluster is 1.5 GB of JSON).
    let started = Instant::now();
    let mut plane: ControlPlane = runtime.block_on(live::start_generated(&repo, &plan))?;
    println!("Loaded in {:.0} s.\n", started.elapsed().as_secs_f64());
    // The generated cluster is not needed again: freed, and given back to the system (4.3 GB of
    // the bench's own at the `ai` size otherwise stayed resident beside the apiserver's).
    drop(plan);
    give_back_freed();
    let kc = plane.admin_kubeconfig.to_string_lossy().to_string();
    let check = alone(&Cmd::new(topo, &["check", "--kubeconfig", &kc, "-A", "--fail-on", "none"]), 3)?;
    let client = runtime.block_on(live::client(&plane));

    let before = runtime.block_on(serve_peer::requests(&client))?;
    let started = Instant::now();
    let mut serve = Serve::start(topo, &kc, plane.admin_kubeconfig.with_file_name("bench-serve.stderr"))?;
    serve.until_ready(Duration::from_secs(600))?;
    let ready = started.elapsed().as_secs_f64();
    let load = runtime.block_on(serve_peer::requests(&client))?.since(before);
    std::thread::sleep(Duration::from_secs(10));
    let (steady_kb, peak_kb) = rss(serve.pid());
    let scraped = scrapes(&mut serve)?;
    let measured = runtime
        .block_on(latency(&client, &mut serve, &scraped.metrics, updates))
        .map_err(|e| live::with_dead(&mut plane, e))?;
    // After every scrape and change above: what a scrape's text and a change leave behind.
    let (after_kb, _) = rss(serve.pid());
    let recovered = runtime.block_on(crate::serve_recovery::measure(&mut plane, &mut serve, outage))?;
    drop(serve);
    let rows = Rows {
        ready,
        steady_kb,
        peak_kb,
        after_kb,
        check: check.median_rss_kb,
        check_secs: check.median_secs,
    };
    print_rows(&rows, &scraped, &measured);
    crate::serve_recovery::print(&recovered, outage);

    let (ns, service) =
        first_hinted(&scraped.metrics).ok_or_else(|| io::Error::other("no Service with hints"))?;
    let cluster = serve_peer::Cluster { kubeconfig: &kc, hinted: (&ns, &service), updates };
    let client = runtime.block_on(live::client(&plane));
    // Paged, one page held at a time: the denominator of the RSS goal at every size.
    let json = runtime.block_on(crate::serve_json::measure(&client))?;
    let theirs = serve_peer::kube_state_metrics(&runtime, &client, &cluster)
        .map_err(|e| live::with_dead(&mut plane, e))?;
    // Last, after both exporters were measured: at the `ai` size kubectl may not fit in memory
    // beside the apiserver (it needed about 12 GB), and a thrashing kubectl must not disturb
    // their figures. Then its row says so.
    let kubectl = crate::common::script_path("tests/plugin/build-tools.sh")?.join("kubectl");
    let kubectl_get = serve_peer::kubectl_get(&kubectl, &kc).map_err(|e| e.to_string());
    let series = serve_peer::series(&scraped.metrics);
    let ours =
        serve_peer::Exporter { ready, steady_kb, series, cpu_per_change: measured.cpu_per_change, load };
    serve_peer::print(&ours, &json, kubectl_get, &theirs);
    Ok(())
}

/// Return the memory the system allocator holds free to the system (glibc keeps freed small
/// blocks in its heap: the generated cluster's millions of them stayed resident).
fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim takes a size and only returns free pages of its heaps.
        unsafe { malloc_trim(0) };
    }
}

/// The figures of [`run`] besides the scrapes, the latency and the recovery.
struct Rows {
    ready: f64,
    steady_kb: u64,
    peak_kb: u64,
    /// After the scrapes and the changes.
    after_kb: u64,
    check: u64,
    check_secs: f64,
}

fn print_rows(r: &Rows, scraped: &Scrapes, measured: &Latency) {
    let mut sorted = measured.latencies.clone();
    sorted.sort_by(f64::total_cmp);
    println!("| measure | value | goal |\n|---|---|---|");
    println!("| time to ready (start → `/readyz` 200) | {:.2} s | — |", r.ready);
    println!(
        "| steady RSS of `serve` (10 s after ready; peak) | {:.0} MB ({:.0} MB peak) | ≤ 1.5× `check -A` |",
        mb(r.steady_kb),
        mb(r.peak_kb)
    );
    println!(
        "| RSS of `serve` after the scrapes and the {} changes below | {:.0} MB | — |",
        2 * measured.latencies.len(),
        mb(r.after_kb)
    );
    println!(
        "| peak RSS of `check -A` on the same cluster (median of 3) | {:.0} MB ({:.2} s) | — |",
        mb(r.check),
        r.check_secs
    );
    println!("| ratio steady RSS / `check -A` | **{:.2}×** | ≤ 1.5× |", r.steady_kb as f64 / r.check as f64);
    println!(
        "| one full scrape of `/metrics`, plain ({:.2} MB received; median of 5) | {:.0} ms | — |",
        scraped.metrics.len() as f64 / 1e6,
        scraped.plain * 1e3
    );
    println!(
        "| one full scrape with `Accept-Encoding: gzip` ({:.2} MB received; median of 5) | {:.0} ms | — |",
        scraped.gzip_bytes as f64 / 1e6,
        scraped.gzip * 1e3
    );
    println!(
        "| EndpointSlice update → changed metric ({} updates): p50 / p99 / max | {:.0} / **{:.0}** / {:.0} ms | p99 ≤ 100 ms |",
        sorted.len(),
        percentile(&sorted, 0.5) * 1e3,
        percentile(&sorted, 0.99) * 1e3,
        sorted.last().copied().unwrap_or(0.0) * 1e3
    );
    println!(
        "| one poll of the latency loop (whole `/metrics` received; median) | {:.0} ms | — |",
        measured.poll * 1e3
    );
    println!("| CPU per change (no scrapes meanwhile) | {:.1} ms | — |", measured.cpu_per_change * 1e3);
}

/// Strip and restore the hints of one slice of the Service with hints first found, `updates`
/// times, each time polling `/metrics` until the Service's hinted total shows it; then the same
/// number of changes without polling, for the CPU they cost.
async fn latency(
    client: &kube::Client,
    serve: &mut Serve,
    metrics: &str,
    updates: usize,
) -> io::Result<Latency> {
    let (ns, service) = first_hinted(metrics).ok_or_else(|| io::Error::other("no Service with hints"))?;
    let api: Api<EndpointSlice> = Api::namespaced(client.clone(), &ns);
    let (slice, original, stripped) = hinted_slice(&api, &service).await?;
    let before = hinted_total(metrics, &ns, &service);
    let mut after: Option<i64> = None;
    let (mut latencies, mut polls) = (Vec::with_capacity(updates), Vec::new());
    for i in 0..updates {
        let strip = i % 2 == 0;
        let endpoints = if strip { &stripped } else { &original };
        api.patch(&slice, &PatchParams::default(), &Patch::Merge(json!({"endpoints": endpoints})))
            .await
            .map_err(io::Error::other)?;
        let sent = Instant::now();
        loop {
            let poll = Instant::now();
            let (_, body) = serve.get("/metrics")?;
            // Received: what a scraper sees; the bench's own reading of the text is not counted.
            let received = sent.elapsed().as_secs_f64();
            polls.push(poll.elapsed().as_secs_f64());
            let total = hinted_total(&body, &ns, &service);
            let done =
                if strip { total != before && after.is_none_or(|a| a == total) } else { total == before };
            if done {
                if strip {
                    after = Some(total);
                }
                latencies.push(received);
                break;
            }
            if sent.elapsed() > Duration::from_secs(30) {
                return Err(serve.why("a change did not show within 30 s"));
            }
        }
    }
    let cpu = cpu_per_change(serve.pid(), &api, &slice, [&stripped, &original], updates).await?;
    polls.sort_by(f64::total_cmp);
    Ok(Latency { latencies, poll: percentile(&polls, 0.5), cpu_per_change: cpu })
}

/// What [`latency`] measured.
struct Latency {
    /// Seconds from the patch's answer to the first scrape showing it, received.
    latencies: Vec<f64>,
    /// Median seconds of one poll (one whole `/metrics` received).
    poll: f64,
    /// CPU seconds of the exporter per change, without scrapes.
    cpu_per_change: f64,
}
