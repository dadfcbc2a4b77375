//! The YAML and JSON readers give byte-identical reports: every fixture dump, written once as YAML
//! and once as JSON (the same objects), through `check -A`, `zones` and `check -A -o json`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{path, topo};

/// Every dump the repository ships: YAML fixtures and examples, and the JSON bad inputs.
fn dumps() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for (dir, extension) in [("tests/fixtures", "yaml"), ("examples", "yaml"), ("tests/bad-inputs", "json")] {
        for entry in std::fs::read_dir(path(dir)).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|e| e == extension) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
}

/// The file's objects as one `Value` (several documents become one `v1 List`); `None` when it is
/// not a readable YAML or JSON text.
fn objects(p: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(p).ok()?;
    let mut documents: Vec<Value> = if p.extension().is_some_and(|e| e == "json") {
        serde_json::Deserializer::from_str(&text).into_iter().collect::<Result<_, _>>().ok()?
    } else {
        serde_saphyr::from_multiple(&text).ok()?
    };
    match documents.len() {
        0 => None,
        1 => documents.pop(),
        _ => Some(json!({"apiVersion": "v1", "kind": "List", "items": documents})),
    }
}

/// stdout, stderr and exit code of `args` on `file`.
fn run(args: &[&str], file: &Path) -> (String, String, Option<i32>) {
    let out = topo().args(args).arg("-f").arg(file).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

#[test]
fn yaml_and_json_of_every_fixture_give_the_same_reports() {
    let dir = tempfile::tempdir().unwrap();
    // One path for both, so the dump's name in the reports is the same.
    let file = dir.path().join("dump");
    let mut compared = 0;
    for source in dumps() {
        let Some(objects) = objects(&source) else { continue };
        let yaml = serde_saphyr::to_string(&objects).unwrap();
        let json = serde_json::to_string_pretty(&objects).unwrap();
        for args in [&["check", "-A", "--fail-on", "none"][..], &["zones"], &["check", "-A", "-o", "json"]] {
            std::fs::write(&file, &yaml).unwrap();
            let from_yaml = run(args, &file);
            std::fs::write(&file, &json).unwrap();
            let from_json = run(args, &file);
            if from_json.2 == Some(2) {
                // Refused (e.g. nested too deep): both, though the line and column differ.
                assert_eq!(from_yaml.2, Some(2), "{} {args:?}: {}", source.display(), from_yaml.1);
                continue;
            }
            if from_yaml.1.contains("invalid YAML: nested deeper than 64 levels") {
                // The YAML parser builds every value; the JSON reader skips a field nothing reads
                // without building it, at any depth (tests/bad-inputs/json-deep-item.json).
                continue;
            }
            assert_eq!(from_yaml, from_json, "{} {args:?}", source.display());
            compared += 1;
        }
    }
    assert!(compared >= 60, "only {compared} reports compared");
}
