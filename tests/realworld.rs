//! The real-world corpus (`tests/realworld/`, its README cites each thread): situations rebuilt
//! from public issue threads, each a dump and the diagnosis the thread established. Every case runs
//! `explain` on its dump as a user would and must name that diagnosis: the verdict, the reason
//! codes in order, the Service's notes, a phrase of the remedy (the `→` line) and of the whole
//! output, and what the remedy must not say. A case that fails is a defect of the tool.
//!
//! The cases of [`NEEDS_DATAPLANE`] need a part of the data-plane model not built yet (the front
//! doors: gateways and meshes before the Service). They are in the corpus with their
//! expected diagnosis and run here too, the other way round: today's diagnosis must still miss it
//! (each says so on stderr). When one starts to pass, the test fails until it leaves the list.

use std::path::{Path, PathBuf};

use crate::support::{path, read, say_skipped, topo};

/// Cases whose data plane is not modelled yet (gateways in front of the Service, issue 33): they run
/// the other way round until the model names their cause.
const NEEDS_DATAPLANE: &[&str] = &[];

/// What a case's `expected` file says (format in tests/realworld/README.md).
#[derive(Debug, Default)]
struct Expected {
    service: String,
    verdict: Option<String>,
    reasons: Option<Vec<String>>,
    notes: Vec<String>,
    remedy: Vec<String>,
    absent: Vec<String>,
    says: Vec<String>,
    needs: Option<String>,
}

fn expected(dir: &Path) -> Expected {
    let mut e = Expected::default();
    for line in read(&dir.join("expected")).lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let (key, value) = line.split_once(':').unwrap_or_else(|| panic!("{}: {line:?}", dir.display()));
        let value = value.trim().to_string();
        let words = || value.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        match key {
            "service" => e.service = value,
            "verdict" => e.verdict = Some(value),
            "reasons" => e.reasons = Some(words()),
            "notes" => e.notes.extend(words()),
            "remedy" => e.remedy.push(value),
            "absent" => e.absent.push(value),
            "says" => e.says.push(value),
            "needs" => e.needs = Some(value),
            other => panic!("{}: unknown key {other:?}", dir.display()),
        }
    }
    assert!(e.service.contains('/'), "{}: service: NAMESPACE/NAME", dir.display());
    e
}

fn cases() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(path("tests/realworld"))
        .expect("tests/realworld")
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// `explain` of the case's Service: (JSON report, the table's text, the first family's remedy),
/// the texts with whitespace collapsed (the table wraps).
fn explain(dir: &Path, service: &str) -> (serde_json::Value, String, String) {
    let (namespace, name) = service.split_once('/').expect("NAMESPACE/NAME");
    let dump = dir.join("dump.yaml").display().to_string();
    let run = |format: &[&str]| {
        let out = topo()
            .args(["explain", "svc", name, "-n", namespace, "-f", &dump])
            .args(format)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("error:"), "{}: {stderr}", dir.display());
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let json = serde_json::from_str(&run(&["-o", "json"])).expect("JSON");
    let table = run(&[]);
    (json, collapse(&table), collapse(&remedy(&table)))
}

/// The first `  → ` paragraph of the table (`  -> ` without a UTF-8 locale): that line and the
/// deeper-indented lines under it.
fn remedy(table: &str) -> String {
    let marker =
        |l: &str| ["→ ", "-> "].iter().find_map(|m| l.trim_start().strip_prefix(m)).map(str::to_string);
    let mut lines = table.lines().skip_while(|l| marker(l).is_none());
    let Some(first) = lines.next().and_then(marker) else { return String::new() };
    let rest = lines.take_while(|l| l.starts_with("    ") && marker(l).is_none()).map(str::to_string);
    std::iter::once(first).chain(rest).collect::<Vec<_>>().join(" ")
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn codes(list: &serde_json::Value) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(|r| r["code"].as_str()).map(str::to_string).collect()
}

/// Where the case's diagnosis differs from the expected one (empty: it names it).
fn misses(dir: &Path, e: &Expected) -> Vec<String> {
    let (json, text, remedy) = explain(dir, &e.service);
    let family = &json["families"][0];
    let mut misses = Vec::new();
    if let Some(verdict) = &e.verdict
        && family["verdict"].as_str() != Some(verdict)
    {
        misses.push(format!("verdict {} (expected {verdict})", family["verdict"]));
    }
    if let Some(reasons) = &e.reasons
        && &codes(&family["reasons"]) != reasons
    {
        misses.push(format!("reasons {:?} (expected {reasons:?})", codes(&family["reasons"])));
    }
    let notes = codes(&json["notes"]);
    misses.extend(e.notes.iter().filter(|n| !notes.contains(n)).map(|n| format!("no note {n} in {notes:?}")));
    misses.extend(
        e.remedy.iter().filter(|p| !remedy.contains(p.as_str())).map(|p| format!("remedy lacks {p:?}")),
    );
    misses.extend(
        e.absent.iter().filter(|p| remedy.contains(p.as_str())).map(|p| format!("remedy says {p:?}")),
    );
    misses
        .extend(e.says.iter().filter(|p| !text.contains(p.as_str())).map(|p| format!("output lacks {p:?}")));
    if !misses.is_empty() {
        misses.push(format!("remedy: {remedy}"));
    }
    misses
}

#[test]
fn the_corpus_has_every_class_and_at_least_fifteen_cases() {
    let all = cases();
    assert!(all.len() >= 15, "{} cases", all.len());
    let names: Vec<String> =
        all.iter().map(|d| d.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for listed in NEEDS_DATAPLANE {
        assert!(names.iter().any(|n| n == listed), "{listed} is listed but not in tests/realworld/");
    }
    let readme = read(&path("tests/realworld/README.md"));
    for name in &names {
        assert!(readme.contains(&format!("`{name}`")), "tests/realworld/README.md does not describe {name}");
        let e = expected(&path(&format!("tests/realworld/{name}")));
        let listed = NEEDS_DATAPLANE.contains(&name.as_str());
        assert_eq!(
            e.needs.as_deref() == Some("dataplane"),
            listed,
            "{name}: `needs: dataplane` and the list disagree"
        );
    }
}

#[test]
fn every_case_names_the_cause_its_thread_established() {
    let mut failures = Vec::new();
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let e = expected(&dir);
        let misses = misses(&dir, &e);
        if NEEDS_DATAPLANE.contains(&name.as_str()) {
            assert!(
                !misses.is_empty(),
                "{name} now names its cause: take it off NEEDS_DATAPLANE in tests/realworld.rs"
            );
            say_skipped(
                &format!("realworld::{name}"),
                "needs the front-door model (Envoy Gateway and other gateways: not modelled yet, issue 33); today it misses",
            );
        } else if !misses.is_empty() {
            failures.push(format!("{name}:\n  {}", misses.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The page of `explain -o html` gives the same remedy as the table: where a data-plane path
/// ignores the hints (cilium/cilium#18710's Cilium without service topology), that path's remedy,
/// not "nothing to do".
#[test]
fn the_html_page_gives_the_data_plane_remedy_the_table_gives() {
    let dump = path("tests/realworld/cilium-18710-kube-proxy-free-service-topology-off/dump.yaml");
    let out = topo()
        .args(["explain", "svc/echo", "-n", "default", "-o", "html", "-f"])
        .arg(&dump)
        .output()
        .expect("runs");
    let html = String::from_utf8(out.stdout).expect("UTF-8");
    let remedy =
        html.split("<p class=\"remedy\">").nth(1).and_then(|r| r.split("</p>").next()).expect("a remedy");
    assert!(remedy.contains("enable-service-topology"), "{remedy}");
}
