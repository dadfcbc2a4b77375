//! The contents of `check -o markdown|junit|sarif`, snapshot-tested (insta) on the demo dump and
//! fixtures. Hermetic, so a change to a report format shows in plain `cargo test`; the consumers
//! tier reads the same formats back with the programs that read them (`report_formats.rs`).

use crate::support::{demo, path, report};

#[test]
fn report_contents_are_stable() {
    let mut inputs = vec![demo()];
    for fixture in [
        "w02-three-zones-four-endpoints.yaml",
        "w06-endpoint-without-zone.yaml",
        "w14-traffic-distribution.yaml",
    ] {
        inputs.push(path("tests/fixtures").join(fixture));
    }
    for input in inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        // Relative to the repository root, so the SARIF artifact is the same on every machine.
        let relative = input.strip_prefix(crate::support::root()).unwrap().to_path_buf();
        for format in ["markdown", "junit", "sarif"] {
            let (_, text) = report(&relative, format, &["--fail-on", "blocked"]);
            let text = text.replace(env!("CARGO_PKG_VERSION"), "[version]");
            insta::assert_snapshot!(format!("{format}@{name}"), text);
        }
    }
}
