//! Upstream differential tier: the Rust engine against the Go oracle that runs the real upstream
//! code (`tests/upstream/`, README there), on seeded random cases and on every regression fixture.
//!
//! * `cargo test --features differential --test differential` compares `ORACLE_CASES` (default
//!   20,000) cases of the 1.36 line and a twentieth as many on each other line (1.21, 1.23, 1.25, 1.26, 1.29, 1.30,
//!   1.32, 1.33, 1.37:
//!   `differential/lines.rs`), seed `ORACLE_SEED` (default: the clock), plus
//!   `tests/upstream/regressions/*.json`, each run by the line of its version. `ORACLE_LINES=1.26,1.29`
//!   runs only those lines' generated cases and `ORACLE_LINE_CASES=N` gives every line but 1.36
//!   N cases (the release script runs one era at a time). The
//!   summary line is printed and written to `<target>/differential-summary.txt`.
//! * A mismatch is confirmed with many more oracle runs (rare tie outcomes), shrunk greedily
//!   (nodes, slices, endpoints, annotations, hints) and written to
//!   `<target>/differential-mismatches/<id>.json`; the failure names the command replaying it:
//!   `ORACLE_REPLAY=<file> cargo test --features differential --test differential -- --nocapture`.
//! * `ORACLE_START` (default 0) offsets the case indexes (the release script runs chunks).
//!
//! What is compared, and what is excluded and why, is documented in `compare.rs`; the engine's side
//! is `engine.rs`, the runs `runs.rs`, mismatch shrinking `mismatch.rs`, the lines `lines.rs`,
//! skewed clusters `skew.rs`.

mod compare;
mod engine;
mod lines;
mod mismatch;
mod runs;
mod skew;
mod stability;

use std::path::{Path, PathBuf};
use std::time::Instant;

use engine::{behaviour_of, engine};
use lines::Line;
use mismatch::{CONFIRM_RUNS, target_dir, write_case};
use runs::{Coverage, Tally, check, run_file, run_generated};

use crate::support;

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
        return support::say_skipped(
            "differential::differential_skewed_clusters",
            "ORACLE_LINES does not name skew",
        );
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
                "REGRESSION {}\n  {}\n  replay: ORACLE_REPLAY={} cargo test --features differential --test differential -- --nocapture",
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
    let per_line = generated_summary(&tallies);
    let summary = format!(
        "differential: compared {per_line}, seed {seed}, mismatches {mismatches}; \
         {regressions} regression fixtures; {} rare tie outcomes confirmed with {CONFIRM_RUNS} runs; \
         {secs:.0} s ({:.0} cases/s, engine {:.0} s)",
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

/// `N (1.36 line) + M (1.23 line)`, or what was selected when no line ran generated cases
/// (`ORACLE_LINES=skew`, or a name no line has).
fn generated_summary(tallies: &[(Line, Tally)]) -> String {
    if tallies.is_empty() {
        return "no generated cases (ORACLE_LINES selects no line)".to_string();
    }
    let per_line: Vec<String> =
        tallies.iter().map(|(line, t)| format!("{} ({} line)", t.compared, line.arg())).collect();
    per_line.join(" + ")
}

#[test]
fn the_summary_says_when_no_line_ran_generated_cases() {
    assert_eq!(generated_summary(&[]), "no generated cases (ORACLE_LINES selects no line)");
    let tally = |compared| Tally { compared, ..Tally::default() };
    let two = [(Line::V136, tally(20)), (Line::V123, tally(3))];
    assert_eq!(generated_summary(&two), "20 (1.36 line) + 3 (1.23 line)");
}
