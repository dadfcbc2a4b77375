//! Replays the committed fuzz corpus and every crash regression through the same functions as the
//! cargo-fuzz targets (`fuzz/harness.rs`), so they run in the normal test suite. Each input must
//! run without a panic; the harness asserts one-line errors and escaped table output.

use std::path::PathBuf;

#[path = "../fuzz/harness.rs"]
mod harness;

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = crate::support::path("fuzz");
    let mut out = Vec::new();
    for dir in [root.join("corpus").join(target), root.join("regressions").join(target)] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let file = entry.expect("readable entry").path();
            let bytes = std::fs::read(&file).expect("readable file");
            out.push((file, bytes));
        }
    }
    out.sort();
    out
}

fn replay(target: &str, run: fn(&[u8])) {
    let inputs = inputs(target);
    assert!(inputs.len() >= 10, "fuzz/corpus/{target} holds only {} inputs", inputs.len());
    for (file, bytes) in inputs {
        if std::panic::catch_unwind(|| run(&bytes)).is_err() {
            panic!("{} panics (replay: cargo +nightly fuzz run {target} {})", file.display(), file.display());
        }
    }
}

#[test]
fn dump_corpus_and_regressions_replay_without_panic() {
    replay("dump", harness::dump);
}

#[test]
fn engine_corpus_and_regressions_replay_without_panic() {
    replay("engine", harness::engine);
}

#[test]
fn json_corpus_and_regressions_replay_without_disagreement() {
    replay("json", harness::json);
}

#[test]
fn yaml_corpus_and_regressions_replay_without_disagreement() {
    replay("yaml", harness::yaml);
}

#[path = "../fuzz/argv_harness.rs"]
mod argv_harness;

#[test]
fn argv_corpus_and_regressions_replay_without_panic() {
    replay("argv", argv_harness::argv);
}
