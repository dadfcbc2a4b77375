//! `cargo xtask bench` and `cargo xtask scale`: build the release binary, generate the cluster,
//! measure side by side, print Markdown tables (pasted into BENCHMARKS.md).

use std::io;
use std::path::Path;

use crate::common::{HEADER, bench_dir, machine, product, repo, row, script_path};
use crate::generate;
use crate::live;
use crate::measure::{Cmd, side_by_side};
use crate::plan::Size;

/// What `cargo xtask bench` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Everything: the dump rows, then live against the same dump loaded.
    All,
    /// The dump rows, JSON and YAML.
    Dumps,
    /// The JSON dump rows.
    Json,
    /// Live only: the cluster generated straight into the apiserver (`bench_live`).
    Live,
}

/// The four ratios.
pub fn run(name: &str, size: Size, runs: usize, part: Part, kubeconfig: Option<&Path>) -> io::Result<()> {
    let topo = product()?;
    if part == Part::Live {
        return crate::bench_live::run(name, size, runs, &topo, kubeconfig);
    }
    let (dump_only, json_only) = (part != Part::All, part == Part::Json);
    let dump = bench_dir()?.join(format!("{name}.json"));
    let summary = generate::write(size, &dump)?;
    eprintln!("xtask: {}: {summary:?}", dump.display());
    let oracle = script_path("tests/upstream/run-oracle.sh")?;
    println!("Machine: {}; {runs} runs each, alternating, median.", machine());
    println!(
        "Cluster `{name}`: {} nodes, {} Services, {} EndpointSlices, {} endpoints; dump {:.0} MB.\n",
        summary.nodes,
        summary.services,
        summary.slices,
        summary.endpoints,
        summary.bytes as f64 / 1e6
    );
    println!("{HEADER}");
    if json_only {
        let rows = json_rows(&topo, &oracle, &dump, runs);
        std::fs::remove_file(&dump)?;
        return rows;
    }
    dump_rows(name, size, &topo, &oracle, &dump, runs)?;
    if dump_only {
        return Ok(());
    }
    let kubectl = script_path("tests/plugin/build-tools.sh")?.join("kubectl");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let plane = runtime.block_on(live::start_loaded(&repo(), &dump))?;
    let kc = plane.admin_kubeconfig.to_string_lossy().to_string();
    let svc = largest_service(&dump)?;
    let (ns, svc_name) = svc.split_once('/').unwrap_or(("default", &svc));
    let get_nodes = Cmd::new(&kubectl, &["--kubeconfig", &kc, "get", "nodes", "-o", "json"]);
    let cases = [
        (
            "live: `check -A` vs kubectl get",
            Cmd::new(&topo, &["check", "--kubeconfig", &kc, "-A", "--fail-on", "none"]),
            Cmd::new(
                &kubectl,
                &["--kubeconfig", &kc, "get", "nodes,services,endpointslices", "-A", "-o", "json"],
            ),
        ),
        (
            "live: `explain` (largest Service) vs kubectl get nodes",
            Cmd::new(&topo, &["explain", "--kubeconfig", &kc, &format!("svc/{svc_name}"), "-n", ns]),
            get_nodes.clone(),
        ),
        ("live: `zones` vs kubectl get nodes", Cmd::new(&topo, &["zones", "--kubeconfig", &kc]), get_nodes),
    ];
    for (what, a, b) in cases {
        let (sa, sb) = side_by_side(&a, &b, runs)?;
        println!("{}", row(what, "≤ 1.0×", &a, &b, sa, sb));
    }
    drop(plane);
    Ok(())
}

/// `cargo xtask bench-serve`: see `serve_bench`.
pub fn serve(name: &str, size: Size, updates: usize, outage: u64) -> io::Result<()> {
    let topo = product()?;
    println!("Machine: {}.", machine());
    crate::serve_bench::run(name, size, updates, outage, &topo)
}

/// The dump benchmarks of issue 19, side by side: JSON and YAML of the same cluster, each against
/// the Go oracle reading the same file and against the parse-only floor (`xtask parse-only`).
fn dump_rows(name: &str, size: Size, topo: &Path, oracle: &Path, json: &Path, runs: usize) -> io::Result<()> {
    let yaml = json.with_extension("yaml");
    let summary = generate::write(size, &yaml)?;
    eprintln!("xtask: {}: {} bytes", yaml.display(), summary.bytes);
    let xtask = std::env::current_exe()?;
    let (j, y) = (json.to_string_lossy().to_string(), yaml.to_string_lossy().to_string());
    let check = |file: &str| Cmd::new(topo, &["check", "-A", "--from-file", file, "--fail-on", "none"]);
    let rows = [
        (
            "JSON: `check -A` vs Go oracle",
            "≤ 0.5×, RSS ≤ dump",
            check(&j),
            Cmd::new(oracle, &["all", "--dump", &j]),
        ),
        ("YAML: `check -A` vs the same cluster as JSON", "≤ 1.5×, RSS ≤ YAML size", check(&y), check(&j)),
        (
            "YAML: `check -A` vs Go oracle on the YAML",
            "≤ 0.5×",
            check(&y),
            Cmd::new(oracle, &["all", "--dump", &y]),
        ),
        ("JSON: `check -A` vs parse-only floor", "≤ 2×", check(&j), Cmd::new(&xtask, &["parse-only", &j])),
        ("YAML: `check -A` vs parse-only floor", "≤ 2×", check(&y), Cmd::new(&xtask, &["parse-only", &y])),
    ];
    println!(
        "(`{name}`: JSON {:.0} MB, YAML {:.0} MB)",
        std::fs::metadata(json)?.len() as f64 / 1e6,
        summary.bytes as f64 / 1e6
    );
    for (what, target, a, b) in rows {
        let (sa, sb) = side_by_side(&a, &b, runs)?;
        println!("{}", row(what, target, &a, &b, sa, sb));
    }
    Ok(())
}

/// The JSON rows alone (`--json-only`): `check -A` against the Go oracle and the parse-only floor,
/// with the peak RSS against the dump's size.
fn json_rows(topo: &Path, oracle: &Path, json: &Path, runs: usize) -> io::Result<()> {
    let xtask = std::env::current_exe()?;
    let j = json.to_string_lossy().to_string();
    let check = Cmd::new(topo, &["check", "-A", "--from-file", &j, "--fail-on", "none"]);
    let bytes = std::fs::metadata(json)?.len();
    let rows = [
        ("JSON: `check -A` vs Go oracle", "≤ 0.3×", Cmd::new(oracle, &["all", "--dump", &j])),
        ("JSON: `check -A` vs parse-only floor", "≤ 2×", Cmd::new(&xtask, &["parse-only", &j])),
    ];
    for (what, target, baseline) in rows {
        let (sa, sb) = side_by_side(&check, &baseline, runs)?;
        println!("{}", row(what, target, &check, &baseline, sa, sb));
        let share = sa.median_rss_kb as f64 * 1024.0 / bytes as f64;
        println!(
            "(peak RSS of `check -A`: {:.2}× the dump's {:.0} MB; goal ≤ 0.25×)",
            share,
            bytes as f64 / 1e6
        );
    }
    Ok(())
}

/// `namespace/name` of the Service with the most endpoints (explain's worst case).
fn largest_service(dump: &Path) -> io::Result<String> {
    let text = std::fs::read_to_string(dump)?;
    let snapshot = kubectl_topo::source::dump::parse_dump(&text, "bench").map_err(io::Error::other)?.snapshot;
    let mut counts: std::collections::HashMap<(&str, &str), usize> = std::collections::HashMap::new();
    for s in &snapshot.slices {
        let key = (s.namespace.as_str(), s.service_name.as_deref().unwrap_or(""));
        *counts.entry(key).or_default() += s.endpoints.len();
    }
    let best = counts.into_iter().max_by_key(|(k, n)| (*n, *k)).map(|((ns, n), _)| format!("{ns}/{n}"));
    best.ok_or_else(|| io::Error::other("no Service in the dump"))
}

/// Issue 20: `check -A` over 50 dumps of the small cluster (each its own seed, one directory, one
/// run) vs `check -A` over one dump with 50× its nodes, Services and endpoints (`small*50`, the
/// large cluster): the cost of reading and reporting many clusters instead of one.
pub fn clusters(runs: usize) -> io::Result<()> {
    const COUNT: u64 = 50;
    let topo = product()?;
    let dir = bench_dir()?.join("clusters-50");
    std::fs::create_dir_all(&dir)?;
    let small = Size::preset("small").expect("a preset");
    for i in 0..COUNT {
        generate::write(Size { seed: small.seed + i, ..small }, &dir.join(format!("cluster-{i:02}.json")))?;
    }
    let one = bench_dir()?.join("small-x50.json");
    let summary = generate::write(Size::preset("small*50").expect("a preset"), &one)?;
    println!("Machine: {}; {runs} runs each, alternating, median.", machine());
    println!(
        "{COUNT} dumps of the small cluster vs one dump of {} nodes, {} Services, {} endpoints.\n",
        summary.nodes, summary.services, summary.endpoints
    );
    println!("{HEADER}");
    let (d, o) = (dir.to_string_lossy().to_string(), one.to_string_lossy().to_string());
    let a = Cmd::new(&topo, &["check", "-A", "--from-file", &d, "--fail-on", "none"]);
    let b = Cmd::new(&topo, &["check", "-A", "--from-file", &o, "--fail-on", "none"]);
    let (sa, sb) = side_by_side(&a, &b, runs)?;
    println!("{}", row("50 clusters: `check -A -f DIR` vs one dump", "≤ 1.5×", &a, &b, sa, sb));
    Ok(())
}
