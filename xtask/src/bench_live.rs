//! `cargo xtask bench --live-only`: the generated cluster loaded straight into a local
//! kube-apiserver (no dump), the apiserver's and etcd's memory, each way of listing
//! (`xtask list-probe`) timed alone, then live `check -A`, `explain`, `zones` side by side with
//! `kubectl get`.

use std::io;
use std::path::Path;
use std::time::Instant;

use crate::common::{HEADER, machine, repo, row, script_path};
use crate::lists::Strategy;
use crate::live::{self, ControlPlane};
use crate::measure::{Cmd, mb, rounds, side_by_side};
use crate::plan::{self, ClusterPlan, Size};

/// `existing`: the admin kubeconfig of a plane `cargo xtask live-up` already loaded with `size`.
pub fn run(name: &str, size: Size, runs: usize, topo: &Path, existing: Option<&Path>) -> io::Result<()> {
    let kubectl = script_path("tests/plugin/build-tools.sh")?.join("kubectl");
    let plan = plan::plan(size);
    let endpoints: usize = plan.services.iter().map(|s| s.endpoints.len()).sum();
    println!("Machine: {}; {runs} runs each, median.", machine());
    println!(
        "Cluster `{name}`: {} nodes, {} Services, {endpoints} endpoints, loaded straight into the apiserver.",
        plan.nodes.len(),
        plan.services.len()
    );
    let plane = match existing {
        Some(_) => None,
        None => Some(up(&plan)?),
    };
    let kc = match (existing, &plane) {
        (Some(path), _) => path.to_string_lossy().to_string(),
        (None, Some(plane)) => plane.admin_kubeconfig.to_string_lossy().to_string(),
        (None, None) => unreachable!("a plane was started"),
    };
    strategies(&kc, runs)?;
    println!("\n{HEADER}");
    let (ns, svc) = largest_service(&plan);
    let get_nodes = Cmd::new(&kubectl, &["--kubeconfig", &kc, "get", "nodes", "-o", "json"]);
    let get_all = ["--kubeconfig", &kc, "get", "nodes,services,endpointslices,events", "-A", "-o", "json"];
    let cases = [
        (
            "live: `check -A` vs kubectl get",
            "≤ 0.15×",
            Cmd::new(topo, &["check", "--kubeconfig", &kc, "-A", "--fail-on", "none"]),
            Cmd::new(&kubectl, &get_all),
        ),
        (
            "live: `explain` (largest Service) vs kubectl get nodes",
            "≤ 1.0×",
            Cmd::new(topo, &["explain", "--kubeconfig", &kc, &format!("svc/{svc}"), "-n", &ns]),
            get_nodes.clone(),
        ),
        (
            "live: `zones` vs kubectl get nodes",
            "≤ 1.0×",
            Cmd::new(topo, &["zones", "--kubeconfig", &kc]),
            get_nodes,
        ),
    ];
    for (what, target, a, b) in cases {
        let (sa, sb) = side_by_side(&a, &b, runs)?;
        println!("{}", row(what, target, &a, &b, sa, sb));
    }
    if let Some(plane) = plane {
        println!("\nAt the end: {}.", memory(&plane));
    }
    Ok(())
}

/// Start etcd + kube-apiserver and load `plan` into them; says how long it took and the memory.
fn up(plan: &ClusterPlan) -> io::Result<ControlPlane> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let started = Instant::now();
    let plane = runtime.block_on(live::start_generated(&repo(), plan))?;
    println!(
        "Loaded (etcd + kube-apiserver started, every object created) in {:.0} s.",
        started.elapsed().as_secs_f64()
    );
    println!("After loading: {}.", memory(&plane));
    Ok(plane)
}

/// `cargo xtask live-up`: load `size` and keep the plane up (for repeated `bench --live-only
/// --kubeconfig KC` runs against one load) until the file it names is deleted.
pub fn keep_up(size: Size) -> io::Result<()> {
    let mut plane = up(&plan::plan(size))?;
    let flag = crate::common::bench_dir()?.join("live-up.running");
    std::fs::write(&flag, plane.admin_kubeconfig.to_string_lossy().as_bytes())?;
    println!("kubeconfig: {}", plane.admin_kubeconfig.display());
    println!("delete {} to stop it", flag.display());
    while flag.exists() {
        if let Some(why) = plane.dead() {
            let _ = std::fs::remove_file(&flag);
            return Err(io::Error::other(format!("the kept-up cluster stopped: {why}")));
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    println!("At the end: {}.", memory(&plane));
    Ok(())
}

/// Each way of listing, checked once against the others (the same counts), then timed: every
/// round runs each once, after one unmeasured warm-up round.
fn strategies(kc: &str, runs: usize) -> io::Result<()> {
    let xtask = std::env::current_exe()?;
    let cmds: Vec<Cmd> = Strategy::ALL
        .iter()
        .map(|s| Cmd::new(&xtask, &["list-probe", "--kubeconfig", kc, "--strategy", s.name()]))
        .collect();
    // A way the server refuses (a streaming list needs etcd's watch progress requests) is a row
    // that says so; the others must agree on what they read.
    let (mut seen, mut timed, mut refused) = (Vec::new(), Vec::new(), Vec::new());
    for (s, cmd) in Strategy::ALL.iter().zip(&cmds) {
        let out = std::process::Command::new(&cmd.program).args(&cmd.args).output()?;
        if out.status.success() {
            seen.push(String::from_utf8_lossy(&out.stdout).trim().to_string());
            timed.push((*s, cmd.clone()));
        } else {
            let why = String::from_utf8_lossy(&out.stderr).chars().take(160).collect::<String>();
            refused.push((*s, why.replace('\n', " ")));
        }
    }
    if seen.is_empty() || seen.iter().any(|s| *s != seen[0]) {
        return Err(io::Error::other(format!("the ways of listing disagree: {seen:?}")));
    }
    println!("\nEach way of listing read {}.\n", seen[0]);
    println!(
        "| way of listing (Nodes, Services, EndpointSlices, Events side by side) | median | peak RSS |\n|---|---|---|"
    );
    let cmds: Vec<Cmd> = timed.iter().map(|(_, c)| c.clone()).collect();
    for ((s, _), stats) in timed.iter().zip(rounds(&cmds, runs)?) {
        println!("| `{}` | {:.2} s | {:.0} MB |", s.name(), stats.median_secs, mb(stats.median_rss_kb));
    }
    for (s, why) in refused {
        println!("| `{}` | refused: {why} | — |", s.name());
    }
    Ok(())
}

/// `namespace`, `name` of the Service with the most endpoints (explain's worst case).
fn largest_service(plan: &ClusterPlan) -> (String, String) {
    let best = plan.services.iter().max_by_key(|s| (s.endpoints.len(), &s.namespace, &s.name));
    best.map(|s| (s.namespace.clone(), s.name.clone())).unwrap_or_default()
}

/// Resident memory now and at peak of this plane's etcd and kube-apiserver (found by their
/// command lines, which name the plane's own directory).
fn memory(plane: &ControlPlane) -> String {
    let dir = plane.dir.path().to_string_lossy().to_string();
    let mut parts = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !cmdline.contains(&dir) {
            continue;
        }
        let Some(program) = ["kube-apiserver", "etcd"].into_iter().find(|p| {
            cmdline.split(' ').next().is_some_and(|first| first.ends_with(&format!("/{p}")) || first == *p)
        }) else {
            continue;
        };
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let field = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        parts.push(format!(
            "{program} {:.0} MB resident ({:.0} MB peak)",
            mb(field("VmRSS:").unwrap_or(0)),
            mb(field("VmHWM:").unwrap_or(0))
        ));
    }
    parts.sort();
    parts.join(", ")
}
