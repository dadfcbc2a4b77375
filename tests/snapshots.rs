//! Snapshot tier (insta): the visible product — `explain` per Service (table and JSON), `zones`, and
//! `check -A` (table and JSON) — for the demo dump and every fixture, rendered through the public
//! render functions exactly as the CLI does (colour off, headers on, the dump's server version).

use std::path::Path;

use kubectl_topo::render::{self, CheckContext, Format as OutputFormat, RenderOptions};
use kubectl_topo::source::dump::parse_dump;
use kubectl_topo::triage::{self, FailOn, IgnoreRules, View};
use topo_engine::core::analyze;
use topo_engine::model::{Behaviour, Snapshot};

use crate::support::{demo, read};

fn options(format: OutputFormat) -> RenderOptions {
    RenderOptions { format, color: false, no_headers: false, unicode: false, width: None }
}

fn text(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).expect("render");
    String::from_utf8(out).expect("UTF-8")
}

fn json(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> serde_json::Value {
    serde_json::from_str(&text(write)).expect("JSON")
}

/// Parse a dump (origin = file name only, so nothing machine-specific can leak) and pick the
/// behaviour the CLI would: the recorded server version, else 1.36.
fn load(path: &Path) -> (Snapshot, Behaviour) {
    let name = path.file_name().unwrap().to_string_lossy();
    let parsed = parse_dump(&read(path), &name).expect("dump parses");
    let version = parsed.snapshot.info.server_version.as_deref().and_then(|v| v.parse().ok());
    (parsed.snapshot, version.unwrap_or_else(|| "1.36".parse().unwrap()))
}

/// Every snapshot of one dump; names are suffixed by insta with the input file when globbing.
fn snapshot_dump(path: &Path) {
    let (snapshot, behaviour) = load(path);
    let mut services: Vec<_> = snapshot.services.iter().collect();
    services.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));

    let mut tables = String::new();
    let mut reports = Vec::new();
    for service in &services {
        let report = analyze::explain(&snapshot, service, behaviour);
        tables.push_str(&format!("$ kubectl topo explain svc/{} -n {}\n", service.name, service.namespace));
        tables.push_str(&text(|out| render::explain(&report, &options(OutputFormat::Table), out)));
        tables.push('\n');
        reports.push(json(|out| render::explain(&report, &options(OutputFormat::Json), out)));
    }
    insta::assert_snapshot!("explain", tables);
    insta::assert_json_snapshot!("explain_json", reports);

    let zones = analyze::zones(&snapshot, behaviour);
    insta::assert_snapshot!("zones", text(|out| render::zones(&zones, &options(OutputFormat::Table), out)));

    // Every Service listed (`--show-all`), as before hiding existed.
    let view = View { show_all: true, ..View::default() };
    let check = analyze::check(&snapshot, &services, behaviour);
    let check = triage::triage(check, &|_| None, &view, &IgnoreRules::default(), FailOn::Drift);
    let context = CheckContext::default();
    insta::assert_snapshot!(
        "check",
        text(|out| render::check(&check, &context, &options(OutputFormat::Table), out))
    );
    insta::assert_json_snapshot!(
        "check_json",
        json(|out| render::check(&check, &context, &options(OutputFormat::Json), out))
    );
}

#[test]
fn fixtures() {
    insta::glob!("fixtures/*.yaml", snapshot_dump);
}

#[test]
fn demo_cluster() {
    insta::with_settings!({ snapshot_suffix => "demo-cluster.yaml" }, { snapshot_dump(&demo()) });
}
