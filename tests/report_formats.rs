//! `check -o markdown|junit|sarif`, each read back by a real consumer: the official SARIF 2.1.0
//! JSON schema (from npm, validated with boon), junitparser (PyPI) and markdown-it-py (PyPI, with
//! GFM tables). `tests/consumers/install-reports.sh` installs them once, outside the repository. Their
//! content is snapshot-tested in the hermetic tier (`report_snapshots.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::{demo, path, report};

/// The cache directory of the consumers (installed on first use).
fn consumers() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Command::new("bash")
            .arg(path("tests/consumers/install-reports.sh"))
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("bash runs tests/consumers/install-reports.sh (needs npm and python3)");
        assert!(out.status.success(), "tests/consumers/install-reports.sh failed (see stderr above)");
        PathBuf::from(String::from_utf8(out.stdout).expect("UTF-8 path").trim())
    })
}

/// Run a Python snippet of the consumers' virtualenv on `input`; its stdout parsed as JSON.
fn python(script: &str, input: &str) -> Value {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), input).unwrap();
    let out = Command::new(consumers().join("venv/bin/python"))
        .args(["-c", script])
        .arg(file.path())
        .output()
        .expect("the consumers' python runs");
    assert!(out.status.success(), "{}\n--- input\n{input}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("the script prints JSON")
}

const JUNIT: &str = r#"
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
cases = []
for suite in xml:
    for case in suite:
        failures = [r for r in case.result if isinstance(r, Failure)]
        cases.append({"suite": suite.name, "name": case.name, "classname": case.classname,
                      "failure": failures[0].message if failures else None,
                      "text": failures[0].text if failures else None,
                      "out": case.system_out})
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "cases": cases}))
"#;

#[test]
fn junit_is_read_by_junitparser_one_case_per_service_failures_at_the_failure_level() {
    let (code, xml) = report(&demo(), "junit", &["--fail-on", "blocked"]);
    assert_eq!(code, 1);
    let parsed = python(JUNIT, &xml);
    assert_eq!((parsed["tests"].as_u64(), parsed["failures"].as_u64()), (Some(3), Some(1)));
    let cases = parsed["cases"].as_array().unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["demo/demo-same-node", "demo/demo-service", "demo/demo-service-4"]);
    assert_eq!(cases[2]["failure"], "IPv4 Blocked: OverloadThreshold");
    let text = cases[2]["text"].as_str().unwrap();
    assert!(text.contains("4 ready endpoints cannot be spread over 3 zones"), "{text}");
    assert!(text.contains(r#""minimumTotal":6"#), "{text}");
    assert!(cases[0]["failure"].is_null());
    // At --fail-on drift nothing fails.
    let (code, xml) = report(&demo(), "junit", &[]);
    assert_eq!((code, python(JUNIT, &xml)["failures"].as_u64()), (0, Some(0)));
}

const MARKDOWN: &str = r#"
import json, sys
from html.parser import HTMLParser
from markdown_it import MarkdownIt
html = MarkdownIt("commonmark").enable("table").render(open(sys.argv[1]).read())
class Shape(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.rows, self.cell, self.details, self.summaries = [], [], None, 0, []
    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "tr": self.rows.append([])
        if tag in ("td", "th"): self.cell = ""
        if tag == "details": self.details += 1
        if tag == "summary": self.summaries.append("")
    def handle_endtag(self, tag):
        if tag in ("td", "th"): self.rows[-1].append(self.cell.strip()); self.cell = None
        if self.stack and self.stack[-1] == tag: self.stack.pop()
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
        elif self.stack and self.stack[-1] == "summary": self.summaries[-1] += data
shape = Shape()
shape.feed(html)
print(json.dumps({"rows": shape.rows, "details": shape.details, "summaries": shape.summaries,
                  "tables": html.count("<table>"), "html": html}))
"#;

#[test]
fn markdown_renders_to_a_table_and_one_details_per_service_with_findings() {
    let (code, text) = report(&demo(), "markdown", &["--fail-on", "blocked", "--show-all"]);
    assert_eq!(code, 1);
    let shape = python(MARKDOWN, &text);
    assert_eq!(shape["tables"], 1, "{}", shape["html"]);
    let rows = shape["rows"].as_array().unwrap();
    assert_eq!(rows[0][0], "Result");
    assert_eq!(rows.len(), 3, "header + kubernetes + demo-service-4: {rows:?}");
    assert_eq!(rows[1].as_array().unwrap()[..5], ["pass", "default", "kubernetes", "None", "IPv4 Unmanaged"]);
    assert_eq!(
        rows[2].as_array().unwrap()[..6],
        ["fail", "demo", "demo-service-4", "Auto", "IPv4 Blocked", "OverloadThreshold"]
    );
    assert_eq!(shape["details"], 2);
    assert_eq!(shape["summaries"][1], "demo/demo-service-4 — Auto");
    let html = shape["html"].as_str().unwrap();
    assert!(html.contains("4 ready endpoints cannot be spread over 3 zones"), "{html}");
}

/// The official schema, compiled (draft-04, as published).
fn sarif_validator() -> &'static (boon::Schemas, boon::SchemaIndex) {
    static VALIDATOR: OnceLock<(boon::Schemas, boon::SchemaIndex)> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let file = consumers().join("sarif-schema-2.1.0.json");
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
        compiler.add_resource("sarif-schema-2.1.0.json", schema).expect("a schema document");
        let index =
            compiler.compile("sarif-schema-2.1.0.json", &mut schemas).unwrap_or_else(|e| panic!("{e:#}"));
        (schemas, index)
    })
}

fn assert_valid_sarif(log: &Value) {
    let (schemas, index) = sarif_validator();
    if let Err(e) = schemas.validate(log, *index) {
        panic!("not SARIF 2.1.0: {e:#}");
    }
}

#[test]
fn sarif_validates_against_the_official_schema_with_one_rule_per_code() {
    let (code, text) = report(&demo(), "sarif", &["--fail-on", "blocked"]);
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&text).unwrap();
    assert_valid_sarif(&log);
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), <topo_engine::report::reason::ReasonCode as strum::VariantArray>::VARIANTS.len());
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:#?}");
    let result = &results[0];
    assert_eq!((&result["ruleId"], &result["level"]), (&"OverloadThreshold".into(), &"error".into()));
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "OverloadThreshold");
    assert!(rules[index]["help"]["text"].as_str().unwrap().starts_with("Scale to a count where hints hold"));
    let location = &result["locations"][0];
    assert_eq!(location["logicalLocations"][0]["fullyQualifiedName"], "demo/demo-service-4");
    let uri = location["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with("examples/demo-cluster.yaml"), "{uri}");
    // The line where the Service starts in the dump (report_snapshots.rs checks which object).
    let line = location["physicalLocation"]["region"]["startLine"].as_u64().expect("a start line");
    let text = std::fs::read_to_string(demo()).unwrap();
    let at = text.lines().skip(line as usize - 1).take(12).collect::<Vec<_>>().join("\n");
    assert!(
        at.starts_with("- apiVersion: v1\n  kind: Service\n") && at.contains("name: demo-service-4"),
        "{at}"
    );
}

#[test]
fn sarif_of_every_fixture_validates_and_keeps_ignored_reasons_as_suppressed() {
    for entry in std::fs::read_dir(path("tests/fixtures")).unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_some_and(|e| e == "yaml") {
            let (_, text) = report(&file, "sarif", &["--show-all"]);
            assert_valid_sarif(&serde_json::from_str(&text).unwrap());
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.yaml");
    std::fs::write(&config, "excludes:\n  - reasons: [OverloadThreshold]\n").unwrap();
    let (code, text) =
        report(&demo(), "sarif", &["--fail-on", "blocked", "--config", &config.display().to_string()]);
    assert_eq!(code, 0);
    let log: Value = serde_json::from_str(&text).unwrap();
    assert_valid_sarif(&log);
    let result = &log["runs"][0]["results"][0];
    assert_eq!((&result["level"], &result["suppressions"][0]["kind"]), (&"note".into(), &"external".into()));
}
