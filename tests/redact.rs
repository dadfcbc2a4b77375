//! `dump --redact`, offline (`dump -f X --redact`): no tell-tale string of a real cluster survives,
//! the redacted dump analyses to the same verdicts, reasons and figures as the original, and the
//! same input always gives the same output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{demo, path, read, topo};

const TELL_TALES: &str = "tests/fixtures/redact/eks-tell-tales.yaml";

/// `dump -f FILE --redact -A` (plus `extra`), asserting success; stdout.
fn redact(file: &Path, extra: &[&str]) -> String {
    let out = topo().args(["dump", "--redact", "-A", "-f"]).arg(file).args(extra).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn no_tell_tale_of_an_eks_dump_survives_redaction() {
    let tell_tales = [
        "acme",              // cluster name (labels, annotations, Event, condition message)
        "ng-payments",       // node group
        "123456789012",      // AWS account (ECR image, role ARN)
        "payments",          // namespace, Service, Pods, owner label
        "ip-10-31",          // node names and hostnames
        "10.31.",            // node and Pod addresses
        "172.20.",           // cluster IP
        "i-0",               // instance IDs (providerID)
        "ami-",              // node group image
        "eu-west-1.compute", // hostnames
        "uid",               // every UID
        "7c1e5a2b",          // a Node UID's value
        "5d4c3b2a",          // the Service UID's value (ownerReferences too)
        "x2k4p",             // a Pod name
        "h7d2m",             // the slice's generated name
        "amazonaws",         // ECR, ELB, eks labels
        "eksctl",            // eksctl labels
        "SPOT",              // capacity type label
        "m7i",               // instance type label
        "region",            // region label
        "arn:",              // role ARN annotation
        "last-applied",      // kubectl's annotation
        "ownerReferences",   // the Argo CD Application
        "argoproj",          //
        "KubeletReady",      // condition reasons and messages
        "Ensured",           // another controller's Event (its message names the load balancer)
        "8c5a2f1",           // the build suffix of kubelet versions
        "ec2a1b2c",          // machine and system IDs
        "Amazon Linux",      // OS image
    ];
    let file = path(TELL_TALES);
    let original = read(&file);
    let from_stdin = topo()
        .args(["dump", "--redact", "-A", "-f", "-", "-o", "json"])
        .write_stdin(original.clone())
        .output()
        .expect("runs");
    assert_eq!(from_stdin.status.code(), Some(0));
    for output in
        [redact(&file, &[]), redact(&file, &["-o", "json"]), String::from_utf8(from_stdin.stdout).unwrap()]
    {
        for tell_tale in tell_tales {
            assert!(
                original.contains(tell_tale),
                "{tell_tale:?} is not in the fixture: the test proves nothing"
            );
            assert!(!output.contains(tell_tale), "{tell_tale:?} survived redaction:\n{output}");
        }
    }
}

#[test]
fn redaction_is_deterministic() {
    let file = path(TELL_TALES);
    assert_eq!(redact(&file, &[]), redact(&file, &[]));
    assert_eq!(redact(&demo(), &["-o", "json"]), redact(&demo(), &["-o", "json"]));
}

#[test]
fn a_namespace_scope_keeps_that_namespace_only() {
    let scoped = |ns: &str| {
        let out = topo().args(["dump", "--redact", "-n", ns, "-f"]).arg(demo()).output().expect("runs");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let (demo_ns, default_ns) = (scoped("demo"), scoped("default"));
    // The demo's own Services are in `demo`; `default` holds only `kubernetes` (a name kept as is).
    assert!(demo_ns.contains("name: svc-") && !demo_ns.contains("name: kubernetes"), "{demo_ns}");
    assert!(!default_ns.contains("name: svc-") && default_ns.contains("name: kubernetes"), "{default_ns}");
    assert!(demo_ns.contains("kind: Node") && default_ns.contains("kind: Node"));
}

/// Every dump the tests ship: the demo, the worked examples and the tell-tale dump.
fn inputs() -> Vec<PathBuf> {
    let mut files =
        vec![demo(), path(TELL_TALES), path("tests/fixtures/simulate/three-zones-three-endpoints.yaml")];
    let mut worked: Vec<PathBuf> = std::fs::read_dir(path("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    worked.sort();
    files.extend(worked);
    files
}

/// The exit code and JSON report of `args` on `file`, without the Events a redacted dump drops (all
/// but the EndpointSlice controller's: their messages may carry names).
fn report(args: &[&str], file: &Path) -> Value {
    let out = topo().args(args).arg("-f").arg(file).args(["-o", "json"]).output().expect("runs");
    let code = out.status.code().expect("exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(code == 0 || code == 1, "{args:?} {}: {stderr}", file.display());
    let mut report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    if let Some(Value::Array(events)) = report.get_mut("events") {
        events.retain(|e| e["reason"].as_str().is_some_and(|r| r.starts_with("TopologyAwareHints")));
    }
    serde_json::json!({"exitCode": code, "report": report})
}

#[test]
fn a_redacted_dump_analyses_to_the_same_reports_but_names() {
    let dir = tempfile::tempdir().unwrap();
    for file in inputs() {
        let redacted = dir.path().join(file.file_name().unwrap());
        std::fs::write(&redacted, redact(&file, &[])).unwrap();
        let mut names = Names::default();
        let what = file.display().to_string();
        for args in [&["zones"][..], &["check", "-A", "--show-all"][..]] {
            names.same(&report(args, &file), &report(args, &redacted), &format!("{what} {args:?}"));
        }
        let services =
            report(&["check", "-A", "--show-all"], &file)["report"]["services"].as_array().unwrap().clone();
        let renamed = report(&["check", "-A", "--show-all"], &redacted)["report"]["services"]
            .as_array()
            .unwrap()
            .clone();
        assert!(!services.is_empty(), "{what}: no Service compared");
        for (a, b) in services.iter().zip(&renamed) {
            let explain = |s: &Value, f: &Path| {
                let name = format!("svc/{}", s["service"]["name"].as_str().unwrap());
                report(&["explain", &name, "-n", s["service"]["namespace"].as_str().unwrap()], f)
            };
            names.same(
                &explain(a, &file),
                &explain(b, &redacted),
                &format!("{what} explain {}", a["service"]),
            );
        }
    }
}

/// The renaming seen so far, both ways: a name is always renamed to the same pseudonym, two names
/// never share one, and anything that is not a name (verdicts, codes, numbers, zones) is equal.
#[derive(Default)]
struct Names {
    to: BTreeMap<String, String>,
    from: BTreeMap<String, String>,
}

impl Names {
    fn same(&mut self, a: &Value, b: &Value, at: &str) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
                assert_eq!(keys(x), keys(y), "{at}");
                for (k, v) in x {
                    // Where the dump came from differs by construction.
                    if k != "origin" {
                        self.same(v, &y[k], &format!("{at}.{k}"));
                    }
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                assert_eq!(x.len(), y.len(), "{at}");
                for (i, (v, w)) in x.iter().zip(y).enumerate() {
                    self.same(v, w, &format!("{at}[{i}]"));
                }
            }
            (Value::String(x), Value::String(y)) => self.text(x, y, at),
            _ => assert_eq!(a, b, "{at}"),
        }
    }

    fn text(&mut self, a: &str, b: &str, at: &str) {
        let (x, y) = (tokens(a), tokens(b));
        assert_eq!(x.len(), y.len(), "{at}: {a:?} vs {b:?}");
        for (t, u) in x.into_iter().zip(y) {
            if t != u {
                assert!(pseudonym(u), "{at}: {t:?} became {u:?}, which is no pseudonym");
            }
            let was = self.to.entry(t.to_string()).or_insert_with(|| u.to_string());
            assert_eq!(was, u, "{at}: {t:?} renamed two ways");
            let back = self.from.entry(u.to_string()).or_insert_with(|| t.to_string());
            assert_eq!(back, t, "{at}: {u:?} stands for two names");
        }
    }
}

/// Words of a text; names keep their dots, dashes and colons (`ip-10-0-1-5.ec2.internal`, IPv6).
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':')))
        .filter(|t| !t.is_empty())
        .collect()
}

fn pseudonym(token: &str) -> bool {
    let token = token.trim_end_matches(['.', ':']);
    let numbered = ["ns-", "svc-", "node-", "slice-", "manager-", "host-"].iter().any(|prefix| {
        token
            .strip_prefix(prefix)
            .is_some_and(|n| n.trim_end_matches(".invalid").bytes().all(|b| b.is_ascii_digit()))
    });
    numbered || token.starts_with("10.1") || token.starts_with("fd00::")
}
