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

/// `check -o sarif` places each result at the line where its Service starts in the dump, read as
/// YAML (its rewrite into JSON keeps the lines) and as JSON: the object that starts at that line
/// is the Service the result names.
#[test]
fn sarif_results_stand_at_their_services_line_in_yaml_and_json() {
    let yaml = std::fs::read_to_string(demo()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("demo-cluster.json");
    let list: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
    std::fs::write(&json, serde_json::to_string_pretty(&list).unwrap()).unwrap();
    for file in [demo(), json] {
        let text = std::fs::read_to_string(&file).unwrap();
        let (_, sarif) = report(&file, "sarif", &["--show-all"]);
        let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        // Two Services of the demo have reasons: kubernetes (no selector) and demo-service-4.
        assert!(results.len() >= 2, "{}: {results:#?}", file.display());
        for result in results {
            let location = &result["locations"][0];
            let name = location["logicalLocations"][0]["name"].as_str().unwrap();
            let region = &location["physicalLocation"]["region"];
            let line = region["startLine"].as_u64().unwrap_or_else(|| panic!("{name}: no line: {location}"));
            let object = object_at(&text, line as usize);
            assert_eq!(
                (object["kind"].as_str(), object["metadata"]["name"].as_str()),
                (Some("Service"), Some(name)),
                "{}:{line}",
                file.display()
            );
        }
    }
}

/// The object that starts at 1-based `line` of a dump: a JSON value from there, or a YAML List
/// item (`- ` and the lines indented under it).
fn object_at(text: &str, line: usize) -> serde_json::Value {
    let rest: Vec<&str> = text.lines().skip(line - 1).collect();
    let first = rest[0].trim_start();
    if first.starts_with('{') {
        let from = rest.join("\n");
        let mut values = serde_json::Deserializer::from_str(&from).into_iter::<serde_json::Value>();
        return values.next().expect("a value").expect("JSON");
    }
    let indent = rest[0].len() - first.len() + 2;
    let mut item = format!("{}\n", first.strip_prefix("- ").expect("a List item starts here"));
    for more in rest[1..].iter().take_while(|l| l.len() > indent && l[..indent].trim().is_empty()) {
        item += &more[indent..];
        item.push('\n');
    }
    serde_saphyr::from_str(&item).expect("YAML")
}
