//! The oracle's `--case` mode, and what happens to a mismatch: confirmed with many more oracle
//! runs, shrunk greedily and written under `<target>/differential-mismatches/` with its replay
//! command.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::compare::OracleResult;
use super::runs::check;

/// Oracle runs per case when a mismatch is re-checked: a tie outcome the 64 default runs missed
/// shows up here (Go map order is the oracle's only randomness).
pub(super) const CONFIRM_RUNS: &str = "4096";
/// Oracle invocations a minimisation may spend.
pub(super) const SHRINK_BUDGET: usize = 600;

// ---------------------------------------------------------------------------------------------
// Oracle processes

/// The oracle on one case file (`--case`), optionally with more runs.
pub(super) fn oracle_case(bin: &Path, file: &Path, runs: Option<&str>) -> OracleResult {
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

pub(super) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp has a parent").to_path_buf()
    })
}

pub(super) fn write_case(path: &Path, case: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(case).expect("JSON") + "\n")
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The errors of a case run through `--case` (a temp file), with `runs` oracle runs.
pub(super) fn check_file(bin: &Path, case: &Value, runs: Option<&str>) -> Vec<String> {
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
pub(super) fn record_mismatch(bin: &Path, case: &Value, errors: &[String]) -> String {
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
        "MISMATCH {id}\n  {}\n  minimal case: {}\n  minimal errors:\n    {}\n  replay: ORACLE_REPLAY={} cargo test --features differential --test differential -- --nocapture",
        errors.join("\n  "),
        file.display(),
        shrunk_errors.join("\n    "),
        file.display()
    )
}
