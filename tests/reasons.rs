//! The reason reference: `kubectl topo reasons [CODE]`, the pages of docs/reasons/ (generated from
//! the same prose, so they cannot drift: `UPDATE_REASONS=1 cargo test --test hermetic reasons`
//! rewrites them), the links to them from SARIF and the JSON Schema, and the project's one home
//! (Cargo.toml `repository`) in everything shipped — never example.invalid.

use std::path::Path;

use kubectl_topo::prose::reference::{REPOSITORY, page_url, parse_code};
use kubectl_topo::render::reasons::{index, markdown};
use strum::VariantArray;
use topo_engine::report::reason::ReasonCode;

use crate::support::{demo, path, read, root, topo};

#[test]
fn every_code_has_its_generated_page_and_every_page_names_a_code() {
    let dir = path("docs/reasons");
    let update = std::env::var_os("UPDATE_REASONS").is_some();
    let mut expected = vec![("README.md".to_string(), index())];
    expected.extend(ReasonCode::VARIANTS.iter().map(|c| (format!("{c}.md"), markdown(*c))));
    let mut stale = Vec::new();
    for (file, text) in &expected {
        let at = dir.join(file);
        if update {
            std::fs::create_dir_all(&dir).expect("docs/reasons is writable");
            std::fs::write(&at, text).expect("docs/reasons is writable");
        } else if std::fs::read_to_string(&at).ok().as_deref() != Some(text.as_str()) {
            stale.push(file.clone());
        }
    }
    assert!(stale.is_empty(), "out of date (UPDATE_REASONS=1 cargo test --test hermetic reasons): {stale:?}");
    for entry in std::fs::read_dir(&dir).expect("docs/reasons exists") {
        let name = entry.expect("an entry").file_name().to_string_lossy().into_owned();
        let stem = name.strip_suffix(".md").unwrap_or(&name);
        let names_a_code = parse_code(stem).is_some_and(|c| c.to_string() == stem);
        assert!(name == "README.md" || names_a_code, "docs/reasons/{name} names no reason code");
    }
}

#[test]
fn reasons_lists_every_code_with_one_line_each() {
    let out = topo().arg("reasons").output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("CODE") && lines[0].ends_with("MEANING"), "{}", lines[0]);
    assert_eq!(lines.len(), ReasonCode::VARIANTS.len() + 1, "{stdout}");
    for code in ReasonCode::VARIANTS {
        assert!(
            lines.iter().any(|l| l.split_whitespace().next() == Some(code.to_string().as_str())),
            "{code} missing"
        );
    }
}

#[test]
fn reasons_code_says_meaning_upstream_fix_and_link_in_any_case() {
    for typed in ["OverloadThreshold", "overloadthreshold", "OVERLOADTHRESHOLD"] {
        let out = topo().args(["reasons", typed]).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{typed}");
        let page = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(page.starts_with("OverloadThreshold: "), "{page}");
        for section in ["What it means:", "Upstream rule:", "How to fix it:", "getAllocations"] {
            assert!(page.contains(section), "{typed}: no {section:?} in\n{page}");
        }
        assert!(page.contains(&format!("More: {}", page_url(ReasonCode::OverloadThreshold))), "{page}");
    }
}

#[test]
fn an_unknown_code_is_one_error_line_and_exit_2() {
    let out = topo().args(["reasons", "Overload"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("'Overload'") && errors[0].contains("kubectl topo reasons"), "{stderr}");
}

#[test]
fn every_sarif_rule_links_its_page_in_the_repository() {
    let out = topo().args(["check", "-A", "-o", "sarif", "-f"]).arg(demo()).output().expect("runs");
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["informationUri"], REPOSITORY);
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), ReasonCode::VARIANTS.len());
    for rule in rules {
        let uri = rule["helpUri"].as_str().expect("every rule has a helpUri");
        let file = uri.strip_prefix(&format!("{REPOSITORY}/blob/main/")).expect("in the repository");
        assert!(path(file).is_file(), "{uri}: no such page");
        assert_eq!(file, format!("docs/reasons/{}.md", rule["id"].as_str().expect("id")));
    }
}

#[test]
fn the_schema_and_html_link_the_reference() {
    let schema: serde_json::Value =
        serde_json::from_str(&read(&path(kubectl_topo::schema::PATH))).expect("JSON");
    let description = schema["$defs"]["ReasonCode"]["description"].as_str().expect("a description");
    assert!(description.contains(&format!("{REPOSITORY}/blob/main/docs/reasons/")), "{description}");
    let out = topo()
        .args(["explain", "svc/demo-service-4", "-n", "demo", "-o", "html", "-f"])
        .arg(demo())
        .output()
        .expect("runs");
    let html = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(html.contains(&format!("href=\"{}\"", page_url(ReasonCode::OverloadThreshold))), "no link");
}

#[test]
fn the_krew_manifest_is_derived_from_the_repository() {
    let manifest = read(&path("krew/topo.yaml"));
    assert!(manifest.contains(&format!("homepage: {REPOSITORY}\n")), "homepage is not {REPOSITORY}");
    let download = format!("{REPOSITORY}/releases/download/v{}/", env!("CARGO_PKG_VERSION"));
    let uris: Vec<&str> = manifest.lines().filter_map(|l| l.trim().strip_prefix("uri: ")).collect();
    assert_eq!(uris.len(), 5, "one uri per platform");
    for uri in uris {
        assert!(uri.starts_with(&download), "{uri} is not under {download}");
    }
}

#[test]
fn nothing_shipped_points_at_example_invalid() {
    let mut hits = Vec::new();
    for dir in ["README.md", "docs", "krew", "completions", "deploy", "charts", "Cargo.toml"] {
        scan(&path(dir), &mut hits);
    }
    let pages = topo().args(["__man", "--list"]).output().expect("runs");
    for page in String::from_utf8(pages.stdout).expect("UTF-8").lines() {
        let text = topo().args(["__man", page]).output().expect("runs").stdout;
        if String::from_utf8_lossy(&text).contains("example.invalid") {
            hits.push(format!("man page {page}"));
        }
    }
    let sarif = topo().args(["check", "-A", "-o", "sarif", "-f"]).arg(demo()).output().expect("runs");
    if String::from_utf8_lossy(&sarif.stdout).contains("example.invalid") {
        hits.push("check -o sarif".into());
    }
    assert!(hits.is_empty(), "example.invalid in: {hits:?}");
}

fn scan(at: &Path, hits: &mut Vec<String>) {
    if at.is_dir() {
        for entry in std::fs::read_dir(at).expect("readable") {
            scan(&entry.expect("an entry").path(), hits);
        }
    } else if std::fs::read(at).is_ok_and(|b| String::from_utf8_lossy(&b).contains("example.invalid")) {
        hits.push(at.strip_prefix(root()).unwrap_or(at).display().to_string());
    }
}
