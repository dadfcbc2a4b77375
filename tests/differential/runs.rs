//! Runs of the comparison: one case ([`check`]), a regression or replay file ([`run_file`]), and
//! a stream of generated cases through one oracle batch process per line ([`run_generated`]),
//! with what they exercised ([`Coverage`]).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Instant;

use serde_json::Value;

use super::compare::{self, OracleResult, Ours};
use super::engine::engine;
use super::lines::Line;
use super::mismatch::{CONFIRM_RUNS, check_file, oracle_case, record_mismatch};
use super::skew;
use crate::support;

/// The comparison of one case (an engine that cannot run the case is a mismatch).
pub(super) fn check(case: &Value, result: &OracleResult) -> Vec<String> {
    check_counting(case, result, &mut Coverage::default())
}

pub(super) fn check_counting(case: &Value, result: &OracleResult, coverage: &mut Coverage) -> Vec<String> {
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
pub(super) struct Coverage {
    pub(super) annotation: usize,
    pub(super) several_outcomes: usize,
    pub(super) steady_writes: usize,
    pub(super) overload_compared: usize,
    pub(super) overloaded: usize,
    pub(super) proxy_cells: usize,
}

impl Coverage {
    pub(super) fn add(&mut self, ours: &Ours, result: &OracleResult) {
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

    pub(super) fn merge(&mut self, other: &Coverage) {
        self.annotation += other.annotation;
        self.several_outcomes += other.several_outcomes;
        self.steady_writes += other.steady_writes;
        self.overload_compared += other.overload_compared;
        self.overloaded += other.overloaded;
        self.proxy_cells += other.proxy_cells;
    }
}

/// Outcome of a batch run.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) compared: usize,
    pub(super) mismatches: Vec<String>,
    /// Cases whose first comparison failed but matched with more oracle runs.
    pub(super) rare: usize,
    /// Time spent in the engine and the comparison (the rest is waiting for the oracle).
    pub(super) engine: std::time::Duration,
    pub(super) coverage: Coverage,
}

/// Stream `count` generated cases of `seed` through the oracle (one process, `--jobs 2`) and
/// compare each with the engine as its result arrives.
pub(super) fn run_generated(line: Line, seed: u64, start: u64, count: u64, tally: &mut Tally) {
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
pub(super) fn run_file(path: &Path) -> (Value, OracleResult, Vec<String>) {
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
