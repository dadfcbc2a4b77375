//! `check --certify` through the binary (docs/stability.md#check): every Auto Service's certificate
//! in one run, the same as `explain` gives for each; the CERTIFICATE column; `--fail-on fragile`
//! failing an exception; and an honest unknown when the dump holds no workloads. The counts that
//! hold are the engine's own predicate (`CpuState::holds`, which the stability property tests
//! hold to the port), never written down here.

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::stability::CpuState;
use topo_engine::core::zones::set_nodes;

use crate::support::{json, path, read, topo};

/// Two Auto Services of 13 endpoints in three equal zones: `steady` (no HPA) and `scaler` (HPA
/// 10..14, zone spread maxSkew 1), each behind a Deployment, its ReplicaSet and Pods.
const FIXTURE: &str = "tests/certify/two-auto-services.yaml";

/// Whether the controller's fresh sync writes hints for `n` ready endpoints on the fixture's Nodes.
fn holds(n: i64) -> bool {
    let snapshot = parse_dump(&read(&path(FIXTURE)), "test").expect("dump parses").snapshot;
    CpuState::of(&set_nodes(&snapshot.nodes)).expect("zone ratios").holds(n, 0)
}

/// `check -A -f FILE ARGS…`: (exit code, stdout, stderr).
fn check(file: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = topo().args(["check", "-A", "-f"]).arg(file).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

/// The cell of `column` in the row of Service `name`.
fn cell(table: &str, column: &str, name: &str) -> String {
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    let at = header.iter().position(|h| *h == column).unwrap_or_else(|| panic!("no {column}: {table}"));
    let row = table.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).expect("a row");
    // Cells hold no spaces but the certificate's, which is the last column.
    let cells: Vec<&str> = row.split_whitespace().collect();
    if at + 1 == header.len() { cells[at..].join(" ") } else { cells[at].to_string() }
}

#[test]
fn check_certifies_every_auto_service_as_explain_does() {
    let fixture = path(FIXTURE);
    let file = fixture.display().to_string();
    let report = json(&["check", "-A", "-f", &file, "--certify"], 0);
    let rows = report["services"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{report:#}");
    for row in rows {
        let name = row["service"]["name"].as_str().unwrap();
        let explained = json(&["explain", &format!("svc/{name}"), "-n", "c", "-f", &file], 0);
        assert_eq!(row["certificates"], explained["certificates"], "{name}: check and explain agree");
        let cert = &row["certificates"]["workloads"][0]["certificate"];
        for n in cert["min"].as_i64().unwrap()..=cert["max"].as_i64().unwrap() {
            let excepted = cert["exceptions"].as_array().unwrap().iter().any(|e| e["count"] == n);
            assert_eq!(excepted, !holds(n), "{name} at {n}: {cert}");
        }
    }
    // The scaler's range crosses a count that fails (11 = 4/4/3 in three equal zones); the steady
    // one's single count holds. The cell says which, in a word and the counts.
    let (code, table, _) = check(&fixture, &["--certify"]);
    assert_eq!(code, 0, "{table}");
    let failing: Vec<String> = (10..=14).filter(|n| !holds(*n)).map(|n| n.to_string()).collect();
    assert!(!failing.is_empty() && holds(13), "the fixture has an exception and a holding count");
    assert_eq!(cell(&table, "CERTIFICATE", "scaler"), format!("fails {}", failing.join(",")));
    assert_eq!(cell(&table, "CERTIFICATE", "steady"), "holds 13");
}

#[test]
fn fail_on_fragile_fails_a_certificate_exception_only_when_certified() {
    let fixture = path(FIXTURE);
    // Today's margins are not fragile: only the certificate can fail the run.
    assert_eq!(check(&fixture, &["--fail-on", "fragile"]).0, 0);
    let (code, _, _) = check(&fixture, &["--certify", "--fail-on", "fragile"]);
    assert_eq!(code, 1, "scaler's exception fails --fail-on fragile");
    assert_eq!(check(&fixture, &["--certify"]).0, 0, "an exception is not a Drift");
    // An HPA range whose every count holds passes.
    let first_fail = (10..=14).find(|n| !holds(*n)).unwrap();
    assert!((first_fail + 1..=14).all(holds), "a range above the failing count holds");
    let text = read(&fixture).replace("minReplicas: 10", &format!("minReplicas: {}", first_fail + 1));
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(file.path(), text).unwrap();
    let (code, table, _) = check(file.path(), &["--certify", "--fail-on", "fragile"]);
    assert_eq!(code, 0, "{table}");
    assert!(cell(&table, "CERTIFICATE", "scaler").starts_with("holds "), "{table}");
    // The CI formats carry the certificate where the other findings go.
    let (code, markdown, _) = check(&fixture, &["--certify", "--fail-on", "fragile", "-o", "markdown"]);
    assert_eq!(code, 1);
    assert!(markdown.contains("| **fail** | c | scaler |"), "{markdown}");
    assert!(markdown.contains("Certificate of deployment/scaler: "), "{markdown}");
    let (_, junit, _) = check(&fixture, &["--certify", "--fail-on", "fragile", "-o", "junit"]);
    assert!(
        junit.contains("failures=\"1\"") && junit.contains("Certificate of deployment/scaler"),
        "{junit}"
    );
}

#[test]
fn without_the_flag_check_reads_and_prints_what_it_always_did() {
    let fixture = path(FIXTURE);
    let (_, table, _) = check(&fixture, &[]);
    assert!(!table.contains("CERTIFICATE"), "{table}");
    let report = json(&["check", "-A", "-f", &fixture.display().to_string()], 0);
    assert!(report["services"].as_array().unwrap().iter().all(|r| r.get("certificates").is_none()));
}

#[test]
fn without_workloads_every_certificate_is_unknown_and_says_so() {
    // The fixture without its Pods, Deployments, ReplicaSets and HPA.
    let text = read(&path(FIXTURE));
    // The List's own keys follow its items (kubectl sorts them): kept whole.
    let (items, list) = text.split_at(text.find("\nkind: List\n").expect("the List's kind"));
    let workload = ["Pod", "Deployment", "ReplicaSet", "HorizontalPodAutoscaler"];
    let kept: Vec<&str> = items
        .split("\n- ")
        .filter(|item| !workload.iter().any(|k| item.contains(&format!("\n  kind: {k}\n"))))
        .collect();
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(file.path(), kept.join("\n- ") + list).unwrap();
    let (code, table, stderr) = check(file.path(), &["--certify", "--fail-on", "fragile"]);
    assert_eq!(code, 0, "an unknown certificate is never a finding: {stderr}");
    for name in ["scaler", "steady"] {
        assert_eq!(cell(&table, "CERTIFICATE", name), "unknown", "{table}");
    }
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("unknown certificate")).collect();
    assert_eq!(notes.len(), 1, "one note for the run: {stderr}");
    assert!(
        notes[0].starts_with("note: 2 Auto Service(s)") && notes[0].contains("not in the dump"),
        "{stderr}"
    );
    let report = json(&["check", "-A", "-f", &file.path().display().to_string(), "--certify"], 0);
    for row in report["services"].as_array().unwrap() {
        assert_eq!(row["certificates"]["unknown"]["reason"], "WorkloadsNotRead", "{row}");
    }
}
