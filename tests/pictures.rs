//! The picture formats (`-o dot`, `-o mermaid`, `-o html`) read by their real consumers: Debian's
//! Graphviz (`dot -Tsvg`), Mermaid's own parser and renderer (its npm package, in a browser) and
//! headless Chromium (Debian's, driven by playwright-core). The expected counts come from the
//! JSON report of the same run, never from a hard-coded number.
//!
//! `tests/consumers/install.sh` installs what is missing (apt: chromium, graphviz; npm ci into
//! `~/.cache/kubectl-topo-node`); `scripts/test-all.sh` runs it first, and these tests run it too.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{demo, path, topo};

/// The node_modules of tests/consumers, installed when missing.
fn node_modules() -> PathBuf {
    let out = Command::new("bash").arg(path("tests/consumers/install.sh")).output().expect("install.sh runs");
    assert!(out.status.success(), "tests/consumers/install.sh: {}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).expect("UTF-8").trim())
}

/// Every dump the pictures are drawn from: the fixtures, the demo, and hostile names.
fn inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(path("tests/fixtures"))
        .expect("fixtures")
        .chain(std::fs::read_dir(path("tests/fixtures/simulate")).expect("simulate fixtures"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files.push(demo());
    files.push(path("tests/bad-inputs/pictures-hostile-names.yaml"));
    files
}

/// stdout of a run that must not fail with a usage or cluster error.
fn run(args: &[&str]) -> Vec<u8> {
    let out = topo().args(args).output().expect("runs");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["-o", "json"]);
    serde_json::from_slice(&run(&all)).expect("JSON")
}

/// Routed zone pairs of an `explain` report: (now, after the next sync).
fn routed_pairs(report: &Value) -> (usize, usize) {
    let mut counts = (0, 0);
    for family in report["families"].as_array().expect("families") {
        let zones = family["crossZone"]["zones"].as_array().cloned().unwrap_or_default();
        for dest in zones.iter().flat_map(|z| z["destinations"].as_array().cloned().unwrap_or_default()) {
            let (now, expected) =
                (dest["share"]["now"].as_f64().unwrap(), dest["share"]["expected"].as_f64().unwrap());
            counts.0 += usize::from(now > 0.0);
            counts.1 += usize::from(expected > 0.0);
            assert!(now > 0.0 || expected > 0.0 || dest["share"]["withoutHints"].as_f64().unwrap() > 0.0);
        }
    }
    counts
}

/// A routed pair is drawn once in the graphs: requests take it now or after the sync.
fn graph_edges(report: &Value) -> usize {
    let families = report["families"].as_array().expect("families");
    let zones = families.iter().flat_map(|f| f["crossZone"]["zones"].as_array().cloned().unwrap_or_default());
    let dests = zones.flat_map(|z| z["destinations"].as_array().cloned().unwrap_or_default());
    dests
        .filter(|d| {
            d["share"]["now"].as_f64().unwrap() > 0.0 || d["share"]["expected"].as_f64().unwrap() > 0.0
        })
        .count()
}

/// One `explain` per Service of a dump that `svc/NAME` can name: (args, JSON report).
fn explained(input: &Path) -> Vec<(Vec<String>, Value)> {
    let file = input.display().to_string();
    let check = json(&["check", "-A", "-f", &file]);
    let rows = check["services"].as_array().expect("rows");
    rows.iter()
        .filter_map(|row| {
            let (ns, name) = (row["service"]["namespace"].as_str()?, row["service"]["name"].as_str()?);
            kubectl_topo::settings::parse_service_ref(name).ok()?;
            let args: Vec<String> =
                ["explain", &format!("svc/{name}"), "-n", ns, "-f", &file].map(String::from).to_vec();
            let report = json(&args.iter().map(String::as_str).collect::<Vec<_>>());
            Some((args, report))
        })
        .collect()
}

fn with_format(args: &[String], format: &str) -> Vec<u8> {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["-o", format]);
    run(&all)
}

/// A simulation of the demo and the edges its graph must have (before and after).
fn simulation(format: &str) -> (Vec<u8>, Option<usize>) {
    let demo = demo().display().to_string();
    let args = ["simulate", "svc/demo-service-4", "-n", "demo", "-f", &demo, "--replicas", "6"];
    let report = json(&args);
    let edges = graph_edges(&report["before"]) + graph_edges(&report["after"]);
    (run(&[&args[..], &["-o", format]].concat()), Some(edges))
}

#[test]
fn graphviz_draws_every_dot_output_with_one_edge_per_routed_zone_pair() {
    node_modules();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut drawn = 0;
    for input in inputs() {
        let file = input.display().to_string();
        let mut outputs = vec![(run(&["check", "-A", "-f", &file, "-o", "dot"]), None)];
        if input == demo() {
            outputs.push(simulation("dot"));
        }
        for (args, report) in explained(&input) {
            outputs.push((with_format(&args, "dot"), Some(graph_edges(&report))));
        }
        for (i, (dot, edges)) in outputs.into_iter().enumerate() {
            let source = dir.path().join(format!("{drawn}-{i}.dot"));
            std::fs::write(&source, &dot).expect("write");
            let out = Command::new("dot").arg("-Tsvg").arg(&source).output().expect("dot runs");
            let svg = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{file}: dot -Tsvg refused:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.stderr.is_empty(), "{file}: dot warned: {}", String::from_utf8_lossy(&out.stderr));
            if let Some(edges) = edges {
                assert_eq!(svg.matches("class=\"edge\"").count(), edges, "{file}: edges drawn");
            }
        }
        drawn += 1;
    }
    assert!(drawn > 10, "{drawn} inputs");
}

/// Run tests/consumers/consumers.cjs and read what it saw.
fn consumers(mode: &str, extra: &[&str], files: &[PathBuf]) -> Vec<Value> {
    let modules = node_modules();
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("seen.json");
    let out = Command::new("node")
        .arg(path("tests/consumers/consumers.cjs"))
        .arg(mode)
        .arg(&report)
        .args(extra)
        .args(files)
        .env("NODE_PATH", &modules)
        .output()
        .expect("node runs");
    assert!(out.status.success(), "consumers.cjs {mode}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("JSON")
}

#[test]
fn mermaid_parses_and_renders_every_output_with_one_edge_per_routed_zone_pair() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut files, mut expected) = (Vec::new(), Vec::new());
    for (n, input) in inputs().into_iter().enumerate() {
        let file = input.display().to_string();
        let mut outputs = vec![(run(&["check", "-A", "-f", &file, "-o", "mermaid"]), None)];
        if input == demo() {
            outputs.push(simulation("mermaid"));
        }
        for (args, report) in explained(&input) {
            outputs.push((with_format(&args, "mermaid"), Some(graph_edges(&report))));
        }
        for (i, (text, edges)) in outputs.into_iter().enumerate() {
            let out = dir.path().join(format!("{n}-{i}.mmd"));
            std::fs::write(&out, text).expect("write");
            files.push(out);
            expected.push((file.clone(), edges));
        }
    }
    let seen = consumers("mermaid", &[], &files);
    assert_eq!(seen.len(), files.len());
    for (r, (file, edges)) in seen.iter().zip(expected) {
        assert_eq!(r["ok"], true, "{file}: Mermaid refused {}: {}", r["file"], r["error"]);
        assert_eq!(r["pageErrors"].as_array().map(Vec::len), Some(0), "{file}: {}", r["pageErrors"]);
        if let Some(edges) = edges {
            assert_eq!(r["edges"].as_u64(), Some(edges as u64), "{file}: edges rendered ({})", r["file"]);
        }
    }
}

/// What Chromium must see in every page: no script, no request, no console error.
fn assert_clean(page: &Value, what: &str) {
    assert_eq!(page["scripts"], 0, "{what}: a <script> element");
    for list in ["consoleErrors", "pageErrors", "requests"] {
        assert_eq!(page[list].as_array().map(Vec::len), Some(0), "{what}: {list}: {}", page[list]);
    }
}

/// What one page must show.
struct Page {
    what: String,
    /// Service sections.
    sections: usize,
    /// `check` table rows (each links to its section).
    rows: usize,
    /// Routed zone pairs (now, after the next sync) = bands per state.
    bands: Option<(usize, usize)>,
}

#[test]
fn chromium_shows_one_section_per_service_and_one_band_per_routed_zone_pair() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    let mut expected: Vec<Page> = Vec::new();
    for (n, input) in inputs().into_iter().enumerate() {
        let file = input.display().to_string();
        let rows = json(&["check", "-A", "-f", &file])["services"].as_array().map_or(0, Vec::len);
        let page = dir.path().join(format!("{n}-check.html"));
        std::fs::write(&page, run(&["check", "-A", "-f", &file, "-o", "html"])).expect("write");
        files.push(page);
        expected.push(Page { what: format!("check {file}"), sections: rows, rows, bands: None });
        for (i, (args, report)) in explained(&input).into_iter().enumerate() {
            let page = dir.path().join(format!("{n}-{i}-explain.html"));
            std::fs::write(&page, with_format(&args, "html")).expect("write");
            files.push(page);
            expected.push(Page {
                what: args.join(" "),
                sections: 1,
                rows: 0,
                bands: Some(routed_pairs(&report)),
            });
        }
    }
    let (capped, capped_page) = capped_check_page(dir.path());
    files.push(capped);
    expected.push(capped_page);
    let seen = consumers("html", &[], &files);
    assert_eq!(seen.len(), files.len());
    for (page, Page { what, sections, rows, bands }) in seen.iter().zip(expected) {
        assert_clean(page, &what);
        assert_eq!(page["sections"].as_u64(), Some(sections as u64), "{what}: sections");
        assert_eq!(page["rows"].as_u64(), Some(rows as u64), "{what}: table rows");
        let links = if rows > 0 { sections } else { 0 };
        assert_eq!(page["links"].as_u64(), Some(links as u64), "{what}: rows linking to a section");
        if let Some((now, after)) = bands {
            assert_eq!(page["bandsNow"].as_u64(), Some(now as u64), "{what}: bands now");
            assert_eq!(page["bandsExpected"].as_u64(), Some(after as u64), "{what}: bands after sync");
        }
    }
}

#[test]
fn chromium_shows_a_simulation_before_and_after_and_takes_a_screenshot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let demo = demo().display().to_string();
    let simulate = ["simulate", "svc/demo-service-4", "-n", "demo", "-f", &demo, "--replicas", "6"];
    let page = dir.path().join("simulate.html");
    std::fs::write(&page, run(&[&simulate[..], &["-o", "html"]].concat())).expect("write");
    let report = json(&simulate);
    let (before, after) = (routed_pairs(&report["before"]), routed_pairs(&report["after"]));
    let shot = dir.path().join("simulate.png");
    let seen = consumers("html", &["--screenshot", &shot.display().to_string()], &[page]);
    assert_clean(&seen[0], "simulate");
    assert_eq!(seen[0]["sections"], 2, "before and after");
    assert_eq!(seen[0]["bandsNow"].as_u64(), Some((before.0 + after.0) as u64));
    assert_eq!(seen[0]["bandsExpected"].as_u64(), Some((before.1 + after.1) as u64));
    let png = std::fs::read(&shot).expect("screenshot written");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a real screenshot ({} bytes)", png.len());
}

/// The demo's check page under a size cap: one full report of its four Services (as `app` passes
/// when the cap is reached), so one section, four rows and one link.
fn capped_check_page(dir: &Path) -> (PathBuf, Page) {
    use kubectl_topo::render::{self, RenderOptions, picture::CheckDetails};
    let parsed =
        kubectl_topo::source::dump::parse_dump(&crate::support::read(&demo()), "demo").expect("parses");
    let snapshot = parsed.snapshot;
    let behaviour = topo_engine::model::Behaviour::default();
    let services: Vec<_> = snapshot.services.iter().collect();
    let check = topo_engine::core::analyze::check(&snapshot, &services, behaviour);
    let details = CheckDetails::of_reports(
        vec![topo_engine::core::analyze::explain(&snapshot, services[1], behaviour)],
        Some(topo_engine::core::analyze::zones(&snapshot, behaviour)),
    );
    let options = RenderOptions {
        format: kubectl_topo::render::Format::Html,
        color: false,
        no_headers: false,
        unicode: false,
        width: None,
    };
    let mut out = Vec::new();
    render::check_pictures(&check, &details, &options, &mut out).expect("renders");
    let text = String::from_utf8(out.clone()).expect("UTF-8");
    assert!(text.contains("class=\"note-cap\""), "the page says it is capped");
    let file = dir.join("capped-check.html");
    std::fs::write(&file, out).expect("write");
    let rows = check.services.len();
    (file, Page { what: "capped check".into(), sections: 1, rows, bands: None })
}

/// `simulate -o html` draws before and after side by side, so eight zones make columns about 67
/// units wide: no two labels of a routing picture may overlap as Chromium lays them out (issue 35).
#[test]
fn chromium_sees_no_band_labels_collide_in_narrow_columns() {
    use crate::support::dump::{auto_service, ep, list, node, slice};
    const ZONES: [&str; 8] = ["zone-a", "zone-b", "zone-c", "zone-d", "zone-e", "zone-f", "zone-g", "zone-h"];
    const NODES: [&str; 8] = ["n-a", "n-b", "n-c", "n-d", "n-e", "n-f", "n-g", "n-h"];
    const ADDRESSES: [&str; 8] =
        ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7", "10.0.0.8"];
    let nodes: Vec<_> = ZONES.iter().zip(NODES).map(|(z, n)| node(n, z, "4")).collect();
    let endpoints = (0..8).map(|i| ep(ADDRESSES[i], ZONES[i], NODES[i])).collect();
    let dump = list(&nodes, &[auto_service("wide")], &[slice("wide-1", "wide", endpoints)]);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("eight-zones.yaml");
    std::fs::write(&file, dump).expect("write");
    let file = file.display().to_string();
    let simulate = ["simulate", "svc/wide", "-n", "w", "-f", &file, "--replicas", "16"];
    let html = run(&[&simulate[..], &["-o", "html"]].concat());
    let text = String::from_utf8_lossy(&html);
    assert!(text.matches("<text").count() > 8, "the pictures have labels to collide: {text}");
    let page = dir.path().join("simulate.html");
    std::fs::write(&page, html).expect("write");
    let seen = consumers("html", &[], &[page]);
    assert_clean(&seen[0], "simulate eight zones");
    assert_eq!(seen[0]["labelOverlaps"], 0, "labels drawn over each other");
}
