//! Upstream differential tier: the Rust engine against the Go oracle that runs the real upstream
//! code (`tests/upstream/`, README there), on seeded random cases and on every regression fixture.
//!
//! * `cargo test --test integration differential` compares `ORACLE_CASES` (default 20,000) cases
//!   of the 1.36 line and a twentieth as many on each other line (1.26, 1.29, 1.30, 1.32, 1.33, 1.37:
//!   `differential/lines.rs`), seed `ORACLE_SEED` (default: the clock), plus
//!   `tests/upstream/regressions/*.json`, each run by the line of its version. `ORACLE_LINES=1.26,1.29`
//!   runs only those lines' generated cases and `ORACLE_LINE_CASES=N` gives every line but 1.36
//!   N cases (the release script runs one era at a time). The
//!   summary line is printed and written to `<target>/differential-summary.txt`.
//! * A mismatch is confirmed with many more oracle runs (rare tie outcomes), shrunk greedily
//!   (nodes, slices, endpoints, annotations, hints) and written to
//!   `<target>/differential-mismatches/<id>.json`; the failure names the command replaying it:
//!   `ORACLE_REPLAY=<file> cargo test --test integration differential -- --nocapture`.
//! * `ORACLE_START` (default 0) offsets the case indexes (the release script runs chunks).
//!
//! What is compared, and what is excluded and why, is documented in `compare.rs`.

mod compare;
mod lines;
mod skew;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Instant;

use kubectl_topo::source::dump::parse_dump;
use serde_json::Value;
use topo_engine::core::analyze;
use topo_engine::core::mode::{self, ModePath};
use topo_engine::core::proxy::proxy_view;
use topo_engine::core::topologycache::service_overloaded;
use topo_engine::core::zones::set_nodes;
use topo_engine::model::{Behaviour, EndpointSlice, LABEL_ZONE, Node, Service, Snapshot};
use topo_engine::report::FamilyReport;

use compare::{EndpointMeta, Event, HintsOut, OracleResult, OurFamily, OurProxy, Ours};
use lines::Line;

use crate::support;

/// Oracle runs per case when a mismatch is re-checked: a tie outcome the 64 default runs missed
/// shows up here (Go map order is the oracle's only randomness).
const CONFIRM_RUNS: &str = "4096";
/// Oracle invocations a minimisation may spend.
const SHRINK_BUDGET: usize = 600;

// ---------------------------------------------------------------------------------------------
// Oracle processes

/// The oracle on one case file (`--case`), optionally with more runs.
fn oracle_case(bin: &Path, file: &Path, runs: Option<&str>) -> OracleResult {
    let mut cmd = Command::new(bin);
    cmd.arg("--case").arg(file);
    if let Some(runs) = runs {
        cmd.args(["--runs", runs]);
    }
    let out = cmd.output().expect("oracle runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("oracle --case {}: {e}; stderr: {}", file.display(), String::from_utf8_lossy(&out.stderr))
    })
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp has a parent").to_path_buf()
    })
}

// ---------------------------------------------------------------------------------------------
// The engine's answer

fn behaviour_of(case: &Value) -> Result<Behaviour, String> {
    match case["k8sVersion"].as_str().unwrap_or("") {
        "" => Ok(Behaviour::default()),
        v => v.parse::<Behaviour>().map_err(|e| e.to_string()),
    }
}

/// Run the engine on a case (steady, fresh, kube-proxy).
fn engine(case: &Value) -> Result<Ours, String> {
    let behaviour = behaviour_of(case)?;
    let text = serde_json::to_string(&case["dump"]).expect("JSON");
    let parsed = parse_dump(&text, "case").map_err(|e| format!("engine cannot read the dump: {e}"))?;
    let snapshot = parsed.snapshot;
    let [service] = snapshot.services.as_slice() else {
        return Err(format!("engine read {} Services, want 1", snapshot.services.len()));
    };
    let decision = mode::select_mode(service, behaviour);
    let path = if mode::controller_reconciles(service).is_some() {
        "none"
    } else {
        match decision.path {
            ModePath::Annotation => "annotation",
            ModePath::TrafficDistribution { .. } => "trafficDistribution",
            ModePath::RemoveHints => "remove",
        }
    };
    let steady = families(&snapshot, service, behaviour);
    let fresh = (path != "none").then(|| families(&stripped(&snapshot, service), service, behaviour));
    let reported: Vec<String> = steady.iter().map(|f| f.family.clone()).collect();
    Ok(Ours { path: path.into(), steady, fresh, proxy: proxy(&snapshot, service, &reported, behaviour) })
}

/// Managed slices of the Service with every hint removed: what a fresh sync starts from.
fn stripped(snapshot: &Snapshot, service: &Service) -> Snapshot {
    let mut s = snapshot.clone();
    for slice in s.slices.iter_mut().filter(|sl| managed_by(sl, service)) {
        for e in &mut slice.endpoints {
            e.hints = None;
        }
    }
    s
}

fn managed_by(slice: &EndpointSlice, service: &Service) -> bool {
    slice.is_for(service) && slice.is_controller_managed()
}

fn key(slice: &EndpointSlice, i: usize) -> String {
    let e = &slice.endpoints[i];
    format!("{}/{i}/{}", slice.name, e.addresses.first().map(String::as_str).unwrap_or(""))
}

/// The model's shared names as the comparison's own strings.
fn owned(names: Option<&[std::sync::Arc<str>]>) -> Option<Vec<String>> {
    names.map(|names| names.iter().map(|n| n.to_string()).collect())
}

fn ready_counts(slices: &[EndpointSlice]) -> compare::Counts {
    let mut counts = compare::Counts::new();
    for e in slices.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()) {
        for z in e.hints.iter().flat_map(|h| h.for_zones.iter().flatten()) {
            *counts.entry(z.to_string()).or_default() += 1;
        }
    }
    counts
}

fn families(snapshot: &Snapshot, service: &Service, behaviour: Behaviour) -> Vec<OurFamily> {
    let report = analyze::explain(snapshot, service, behaviour);
    let ratios = set_nodes(&snapshot.nodes).ratios;
    let annotation = matches!(mode::select_mode(service, behaviour).path, ModePath::Annotation)
        && mode::controller_reconciles(service).is_none();
    let mut expected = analyze::expected_slices(snapshot, service, behaviour);
    report
        .families
        .iter()
        .map(|f: &FamilyReport| {
            let live: Vec<EndpointSlice> = snapshot
                .slices
                .iter()
                .filter(|s| managed_by(s, service) && s.address_type == f.address_type)
                .cloned()
                .collect();
            let expected = expected.remove(&f.address_type).unwrap_or_default();
            let mut hints = BTreeMap::new();
            let mut endpoints = BTreeMap::new();
            for slice in &expected {
                for (i, e) in slice.endpoints.iter().enumerate() {
                    let h = e.hints.as_ref().map(|h| HintsOut {
                        for_zones: owned(h.for_zones.as_deref()),
                        for_nodes: owned(h.for_nodes.as_deref()),
                    });
                    hints.insert(key(slice, i), h);
                    endpoints.insert(
                        key(slice, i),
                        EndpointMeta {
                            zone: e.zone.as_deref().map(str::to_string),
                            ready: e.controller_ready(),
                        },
                    );
                }
            }
            let mut changed = f.rewritten_slices.clone();
            changed.sort();
            let counts = ready_counts(&expected);
            OurFamily {
                family: f.address_type.clone(),
                no_managed_slices: live.is_empty(),
                changed,
                event: f.event.as_ref().map(|e| Event {
                    event_type: e.event_type.clone(),
                    reason: e.reason.clone(),
                    message: e.message.clone(),
                }),
                overloaded_after_sync: annotation.then(|| service_overloaded(&counts, &ratios)),
                counts,
                live_counts: ready_counts(&live),
                count_outcomes: f.count_outcomes.clone(),
                hints,
                endpoints,
                overloaded: f.overloaded,
            }
        })
        .collect()
}

/// kube-proxy per reported family, on the dump's nodes plus the oracle's synthetic ones
/// (`oracle-zoneless`, `oracle-in-<zone>` for every zone seen in the case: node labels, endpoint
/// zones, zone hints of any slice), which host no endpoint.
fn proxy(
    snapshot: &Snapshot,
    service: &Service,
    families: &[String],
    behaviour: Behaviour,
) -> BTreeMap<String, OurProxy> {
    let mut zones: BTreeSet<String> =
        snapshot.nodes.iter().filter_map(|n| n.labels.get(LABEL_ZONE).cloned()).collect();
    for e in snapshot.slices.iter().flat_map(|s| &s.endpoints) {
        zones.extend(e.zone.iter().map(|z| z.to_string()));
        zones.extend(e.hints.iter().flat_map(|h| h.for_zones.iter().flatten()).map(|z| z.to_string()));
    }
    let synthetic = |name: String, zone: Option<&String>| Node {
        name,
        labels: zone.map(|z| (LABEL_ZONE.to_string(), z.clone())).into_iter().collect(),
        allocatable_cpu: None,
        ready: None,
        kubelet_version: None,
    };
    let mut nodes = snapshot.nodes.clone();
    nodes.push(synthetic("oracle-zoneless".into(), None));
    nodes.extend(zones.iter().map(|z| synthetic(format!("oracle-in-{z}"), Some(z))));
    let local = service.internal_traffic_policy.as_deref() == Some("Local");
    families
        .iter()
        .map(|family| {
            let slices: Vec<&EndpointSlice> =
                snapshot.slices.iter().filter(|s| s.address_type == *family).collect();
            let view = proxy_view(service, &slices, &nodes, behaviour);
            let port = view.port.as_ref().map(|_| {
                let p = &service.ports[0];
                format!("{}/{}", p.name, p.protocol)
            });
            let nodes = view
                .zones
                .iter()
                .flat_map(|z| z.nodes.iter().map(move |n| (n.clone(), z.endpoints.clone())))
                .collect();
            (family.clone(), OurProxy { port, local, nodes })
        })
        .collect()
}

/// The comparison of one case (an engine that cannot run the case is a mismatch).
fn check(case: &Value, result: &OracleResult) -> Vec<String> {
    check_counting(case, result, &mut Coverage::default())
}

fn check_counting(case: &Value, result: &OracleResult, coverage: &mut Coverage) -> Vec<String> {
    match engine(case) {
        Ok(ours) => {
            coverage.add(&ours, result);
            compare::compare(&ours, result)
        }
        Err(e) => vec![e],
    }
}

/// What the compared cases exercised (printed with the summary, so a vacuous run shows).
#[derive(Default)]
struct Coverage {
    annotation: usize,
    several_outcomes: usize,
    steady_writes: usize,
    overload_compared: usize,
    overloaded: usize,
    proxy_cells: usize,
}

impl Coverage {
    fn add(&mut self, ours: &Ours, result: &OracleResult) {
        let annotation = ours.path == "annotation";
        self.annotation += usize::from(annotation);
        self.several_outcomes += usize::from(result.outcomes.len() > 1);
        self.steady_writes += usize::from(ours.steady.iter().any(|f| !f.changed.is_empty()));
        if annotation && compare::overload_comparable(&ours.steady) {
            self.overload_compared += 1;
            self.overloaded += usize::from(result.outcomes.iter().any(|o| o.overloaded));
        }
        self.proxy_cells +=
            result.proxy.iter().flat_map(|p| p.values()).map(|nodes| nodes.len()).sum::<usize>();
    }

    fn merge(&mut self, other: &Coverage) {
        self.annotation += other.annotation;
        self.several_outcomes += other.several_outcomes;
        self.steady_writes += other.steady_writes;
        self.overload_compared += other.overload_compared;
        self.overloaded += other.overloaded;
        self.proxy_cells += other.proxy_cells;
    }
}

// ---------------------------------------------------------------------------------------------
// Mismatch handling: confirm, shrink, write

fn write_case(path: &Path, case: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(case).expect("JSON") + "\n")
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The errors of a case run through `--case` (a temp file), with `runs` oracle runs.
fn check_file(bin: &Path, case: &Value, runs: Option<&str>) -> Vec<String> {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    write_case(file.path(), case);
    check(case, &oracle_case(bin, file.path(), runs))
}

/// Removals tried while shrinking, in order: whole items (never the Service), endpoints, hints,
/// annotations, node labels.
fn shrink_candidates(case: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let items = case["dump"]["items"].as_array().cloned().unwrap_or_default();
    for (i, item) in items.iter().enumerate() {
        if item["kind"] != "Service" {
            let mut c = case.clone();
            c["dump"]["items"].as_array_mut().unwrap().remove(i);
            out.push(c);
        }
    }
    for (i, item) in items.iter().enumerate() {
        for (j, e) in item["endpoints"].as_array().into_iter().flatten().enumerate() {
            let mut c = case.clone();
            c["dump"]["items"][i]["endpoints"].as_array_mut().unwrap().remove(j);
            out.push(c);
            if e.get("hints").is_some() {
                let mut c = case.clone();
                c["dump"]["items"][i]["endpoints"][j].as_object_mut().unwrap().remove("hints");
                out.push(c);
            }
        }
        for field in ["annotations", "labels"] {
            if item["kind"] == "EndpointSlice" && field == "labels" {
                continue;
            }
            for k in item["metadata"][field].as_object().into_iter().flat_map(|m| m.keys()) {
                let mut c = case.clone();
                c["dump"]["items"][i]["metadata"][field].as_object_mut().unwrap().remove(k);
                out.push(c);
            }
        }
    }
    out
}

/// Greedy shrinking: keep every removal that still mismatches.
fn shrink(bin: &Path, case: &Value) -> Value {
    let mut current = case.clone();
    let mut budget = SHRINK_BUDGET;
    'outer: loop {
        for candidate in shrink_candidates(&current) {
            if budget == 0 {
                break 'outer;
            }
            budget -= 1;
            if !check_file(bin, &candidate, None).is_empty() {
                current = candidate;
                continue 'outer;
            }
        }
        break;
    }
    current
}

/// A confirmed mismatch, shrunk and written; the message names the replay command.
fn record_mismatch(bin: &Path, case: &Value, errors: &[String]) -> String {
    let shrunk = shrink(bin, case);
    let shrunk_errors = check_file(bin, &shrunk, Some(CONFIRM_RUNS));
    let dir = target_dir().join("differential-mismatches");
    std::fs::create_dir_all(&dir).expect("mismatch dir");
    let id = case["id"].as_str().unwrap_or("case").replace('/', "_");
    let file = dir.join(format!("{id}.json"));
    let mut minimal = shrunk;
    minimal["note"] = Value::String(format!("minimised from {id}: {}", shrunk_errors.join("; ")));
    write_case(&file, &minimal);
    format!(
        "MISMATCH {id}\n  {}\n  minimal case: {}\n  minimal errors:\n    {}\n  replay: ORACLE_REPLAY={} cargo test --test integration differential -- --nocapture",
        errors.join("\n  "),
        file.display(),
        shrunk_errors.join("\n    "),
        file.display()
    )
}

// ---------------------------------------------------------------------------------------------
// Runs

/// Outcome of a batch run.
#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
    /// Cases whose first comparison failed but matched with more oracle runs.
    rare: usize,
    /// Time spent in the engine and the comparison (the rest is waiting for the oracle).
    engine: std::time::Duration,
    coverage: Coverage,
}

/// Stream `count` generated cases of `seed` through the oracle (one process, `--jobs 2`) and
/// compare each with the engine as its result arrives.
fn run_generated(line: Line, seed: u64, start: u64, count: u64, tally: &mut Tally) {
    if count == 0 {
        return;
    }
    let bin = line.bin();
    // The older lines have no generator of their own: the 1.36 build's, retargeted to their versions.
    let mut generator = Command::new(if line.versions().is_some() { Line::V136.bin() } else { bin.clone() });
    generator.args([
        "gen",
        "--seed",
        &seed.to_string(),
        "--start",
        &start.to_string(),
        "--count",
        &count.to_string(),
    ]);
    if let Some(versions) = line.versions() {
        generator.args(["--versions", versions]);
    }
    let mut generator = generator.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("oracle gen");
    let mut batch = Command::new(&bin)
        .args(["--jobs", "2", "--adaptive-runs"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("oracle batch");
    let gen_out = BufReader::new(generator.stdout.take().expect("gen stdout"));
    let mut batch_in = batch.stdin.take().expect("batch stdin");
    let (tx, rx) = mpsc::sync_channel::<String>(4096);
    let feeder = std::thread::spawn(move || {
        for line in gen_out.lines() {
            let line = line.expect("gen output");
            tx.send(line.clone()).expect("main thread alive");
            batch_in
                .write_all(line.as_bytes())
                .and_then(|_| batch_in.write_all(b"\n"))
                .expect("oracle stdin");
        }
    });
    let began = Instant::now();
    for text in BufReader::new(batch.stdout.take().expect("batch stdout")).lines() {
        let text = text.expect("oracle output");
        let case_line = rx.recv().expect("a case per result");
        let case: Value = serde_json::from_str(&case_line).expect("case JSON");
        let result: OracleResult = serde_json::from_str(&text).expect("result JSON");
        assert_eq!(case["id"].as_str(), Some(result.id.as_str()), "results stay in input order");
        tally.compared += 1;
        if tally.compared.is_multiple_of(2000) {
            eprintln!("differential: {} line: {} cases, {:.0?}", line.arg(), tally.compared, began.elapsed());
        }
        let t = Instant::now();
        let errors = check_counting(&case, &result, &mut tally.coverage);
        tally.engine += t.elapsed();
        if errors.is_empty() {
            continue;
        }
        // Rare tie outcomes: ask again with many more runs before calling it a mismatch.
        let confirmed = check_file(&bin, &case, Some(CONFIRM_RUNS));
        if confirmed.is_empty() {
            tally.rare += 1;
            continue;
        }
        let message = record_mismatch(&bin, &case, &confirmed);
        eprintln!("{message}");
        tally.mismatches.push(message);
    }
    feeder.join().expect("feeder");
    let _ = generator.wait();
    let status = batch.wait().expect("oracle batch exits");
    assert!(status.success(), "oracle batch failed (a case errored): {status}");
}

/// One case file (a regression fixture or a replayed mismatch): oracle `--case`, engine, compare.
fn run_file(path: &Path) -> (Value, OracleResult, Vec<String>) {
    let case: Value =
        serde_json::from_str(&support::read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bin = Line::for_version(case["k8sVersion"].as_str().unwrap_or("")).bin();
    let result = oracle_case(&bin, path, None);
    // A skewed cluster's nodes are proved by the lines of their own versions too (skew.rs).
    if !skew::skewed_nodes(&case).is_empty() {
        let mut errors = skew::check_all(std::slice::from_ref(&case), None).remove(0);
        if !errors.is_empty() {
            errors = skew::check_all(std::slice::from_ref(&case), Some(CONFIRM_RUNS)).remove(0);
        }
        return (case, result, errors);
    }
    let mut errors = check(&case, &result);
    if !errors.is_empty() {
        errors = check_file(&bin, &case, Some(CONFIRM_RUNS));
    }
    (case, result, errors)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.trim().parse().unwrap_or_else(|_| panic!("{name}={v:?} is not a number")))
}

/// `ORACLE_REPLAY=<case file>`: one case, with both answers printed.
fn replay(path: &Path) {
    let (case, result, errors) = run_file(path);
    let ours = engine(&case);
    println!("case {} (k8sVersion {})", path.display(), result.k8s_version);
    println!(
        "engine: {}",
        serde_json::to_string_pretty(&ours.as_ref().map_err(|e| e.clone())).unwrap_or_default()
    );
    println!("oracle: {} outcome(s), seen {:?}", result.outcomes.len(), result.seen);
    for (i, o) in result.outcomes.iter().enumerate() {
        println!("oracle outcome #{i}: {o:?}");
    }
    if errors.is_empty() {
        println!("differential replay: MATCH");
    } else {
        panic!("differential replay: MISMATCH\n  {}", errors.join("\n  "));
    }
}

/// Skewed clusters (`skew.rs`): `ORACLE_SKEW_CASES` generated 1.33 cases (else `ORACLE_LINE_CASES`,
/// else a hundredth of `ORACLE_CASES`: each case runs three lines) with Nodes at 1.30, 1.32 and 1.33, each node's kube-proxy
/// proved by its own line. Runs unless `ORACLE_LINES` names lines without `skew`.
#[test]
fn differential_skewed_clusters() {
    let only = std::env::var("ORACLE_LINES").unwrap_or_default();
    if !only.trim().is_empty() && !only.split(',').any(|l| l.trim() == "skew") {
        return;
    }
    let count = env_u64("ORACLE_SKEW_CASES")
        .or(env_u64("ORACLE_LINE_CASES"))
        .unwrap_or(env_u64("ORACLE_CASES").unwrap_or(20_000) / 100);
    let start = env_u64("ORACLE_START").unwrap_or(0);
    let seed = env_u64("ORACLE_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs()
    });
    let began = Instant::now();
    let cases = skew::generated(seed, start, count);
    let skewed = cases.iter().filter(|c| !skew::skewed_nodes(c).is_empty()).count();
    let mismatches = skew::mismatches(&cases, CONFIRM_RUNS, &target_dir().join("differential-mismatches"));
    let summary = format!(
        "differential skewed clusters: compared {} (skew line), {skewed} with older nodes, seed {seed}, \
         mismatches {}; {:.0} s",
        cases.len(),
        mismatches.len(),
        began.elapsed().as_secs_f64()
    );
    println!("{summary}");
    assert!(mismatches.is_empty(), "{summary}\n\n{}", mismatches.join("\n\n"));
}

#[test]
fn differential() {
    if let Some(path) = std::env::var_os("ORACLE_REPLAY").filter(|p| !p.is_empty()) {
        replay(Path::new(&path));
        return;
    }
    let began = Instant::now();
    let count = env_u64("ORACLE_CASES").unwrap_or(20_000);
    let start = env_u64("ORACLE_START").unwrap_or(0);
    let seed = env_u64("ORACLE_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs()
    });
    println!("differential: seed {seed}, {count} cases from index {start} (replay: ORACLE_SEED={seed})");

    // Regression fixtures first: small, and each one names a fixed bug.
    let mut regressions = 0;
    let mut failures = Vec::new();
    let dir = support::path("tests/upstream/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for file in &files {
        let (_, _, errors) = run_file(file);
        regressions += 1;
        if !errors.is_empty() {
            failures.push(format!(
                "REGRESSION {}\n  {}\n  replay: ORACLE_REPLAY={} cargo test --test integration differential -- --nocapture",
                file.display(),
                errors.join("\n  "),
                file.display()
            ));
        }
    }

    let only = std::env::var("ORACLE_LINES").unwrap_or_default();
    let line_cases = env_u64("ORACLE_LINE_CASES");
    let selected = |line: &Line| only.trim().is_empty() || only.split(',').any(|l| l.trim() == line.arg());
    let tallies: Vec<(Line, Tally)> = lines::ALL
        .iter()
        .filter(|line| selected(line))
        .map(|&line| {
            let mut tally = Tally::default();
            let cases = match (line, line_cases) {
                (Line::V136, _) | (_, None) => line.share(count),
                (_, Some(n)) => n,
            };
            run_generated(line, seed, start, cases, &mut tally);
            (line, tally)
        })
        .collect();

    let secs = began.elapsed().as_secs_f64();
    let compared: usize = tallies.iter().map(|(_, t)| t.compared).sum();
    let mismatches = tallies.iter().map(|(_, t)| t.mismatches.len()).sum::<usize>() + failures.len();
    let per_line: Vec<String> =
        tallies.iter().map(|(line, t)| format!("{} ({} line)", t.compared, line.arg())).collect();
    let summary = format!(
        "differential: compared {}, seed {seed}, mismatches {mismatches}; \
         {regressions} regression fixtures; {} rare tie outcomes confirmed with {CONFIRM_RUNS} runs; \
         {secs:.0} s ({:.0} cases/s, engine {:.0} s)",
        per_line.join(" + "),
        tallies.iter().map(|(_, t)| t.rare).sum::<usize>(),
        compared as f64 / secs.max(0.001),
        tallies.iter().map(|(_, t)| t.engine).sum::<std::time::Duration>().as_secs_f64(),
    );
    let mut c = Coverage::default();
    for (_, t) in &tallies {
        c.merge(&t.coverage);
    }
    println!(
        "differential coverage: {} annotation-path cases, {} with several upstream outcomes, {} where the \
         steady sync writes, report's overload compared in {} ({} overloaded; the recheck after the sync in \
         every annotation case), {} kube-proxy node results",
        c.annotation, c.several_outcomes, c.steady_writes, c.overload_compared, c.overloaded, c.proxy_cells
    );
    println!("{summary}");
    let _ = std::fs::write(target_dir().join("differential-summary.txt"), format!("{summary}\n"));
    for (_, t) in tallies {
        failures.extend(t.mismatches);
    }
    assert!(failures.is_empty(), "{summary}\n\n{}", failures.join("\n\n"));
}
