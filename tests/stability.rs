//! The stability surfaces through the binary (docs/stability.md): `simulate --replicas MIN..MAX`'s
//! certificate, `explain`'s Stability section and JSON, `check -o wide`'s MARGIN column. Each
//! answer is checked against the engine's own "replicas needed" predicate
//! (`analyze::hints_hold`), which the replicas property test holds to the port.

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze::{hints_hold, spread_weights};
use topo_engine::core::zones::set_nodes;

use crate::support::{json, path, read, topo};

/// W2: three equal zones, 4 ready endpoints (a:2 b:1 c:1): the k/k #122437 arithmetic.
const W02: &str = "tests/fixtures/w02-three-zones-four-endpoints.yaml";

/// Whether a fresh sync writes hints for `n` endpoints spread as W2's today.
fn holds(n: i64) -> bool {
    let snapshot = parse_dump(&read(&path(W02)), "test").expect("dump parses").snapshot;
    let topology = set_nodes(&snapshot.nodes);
    let (weights, _) = spread_weights(&snapshot.slices, &topology);
    hints_hold(&topology.ratios, &weights, n)
}

fn in_ranges(ranges: &serde_json::Value, n: i64) -> bool {
    ranges
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["from"].as_i64().unwrap() <= n && n <= r["to"].as_i64().unwrap())
}

#[test]
fn the_certificate_holds_exactly_where_the_controller_writes_hints() {
    let doc =
        json(&["simulate", "svc/svc", "-n", "w", "-f", W02, "--replicas", "3..12", "--max-skew", "1"], 0);
    assert_eq!(doc["kind"], "CertificateReport");
    let cert = &doc["certificate"];
    assert_eq!(cert["spread"]["maxSkew"], 1);
    for n in 3..=12 {
        let exception = cert["exceptions"].as_array().unwrap().iter().find(|e| e["count"] == n);
        assert_eq!(in_ranges(&cert["holds"], n), holds(n), "count {n}");
        // Step A reads only the count: a failing count fails in every placement.
        assert_eq!(exception.is_some_and(|e| e["anyPlacement"] == true), !holds(n), "count {n}");
    }
    let eleven = cert["exceptions"].as_array().unwrap().iter().find(|e| e["count"] == 11).expect("11 fails");
    assert_eq!(eleven["allowed"], 3, "4/4/3 in its three arrangements");
    let out = topo()
        .args(["simulate", "svc/svc", "-n", "w", "-f", W02, "--replicas", "3..12", "--max-skew", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Stability certificate") && text.contains("11 (any placement)"), "{text}");
}

#[test]
fn a_range_refuses_other_changes_in_one_line() {
    let out =
        topo().args(["simulate", "svc/svc", "-n", "w", "-f", W02, "--replicas", "3..2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1, "{err}");
    assert!(err.contains("--replicas \"3..2\""), "{err}");
}

#[test]
fn explain_shows_the_margin_and_check_wide_its_column() {
    let doc = json(&["explain", "svc/svc", "-n", "w", "-f", W02], 0);
    let margin = &doc["families"][0]["stability"];
    assert_eq!(margin["holds"], holds(4));
    for zone in margin["endpoints"].as_array().unwrap() {
        assert_eq!(zone["addFlips"], holds(5) != holds(4), "{zone}");
        if zone["ready"].as_i64().unwrap() > 0 {
            assert_eq!(zone["removeFlips"], holds(3) != holds(4), "{zone}");
        }
    }
    assert_eq!(margin["fragile"], holds(3) != holds(4) || holds(5) != holds(4));
    let out = topo().args(["explain", "svc/svc", "-n", "w", "-f", W02]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nStability\n"), "{text}");
    let wide = topo().args(["check", "-A", "-f", W02, "-o", "wide"]).output().unwrap();
    let wide = String::from_utf8(wide.stdout).unwrap();
    let header: Vec<&str> = wide.lines().next().unwrap().split_whitespace().collect();
    let row: Vec<&str> = wide.lines().find(|l| l.contains(" svc ")).unwrap().split_whitespace().collect();
    let cell = row[header.iter().position(|h| *h == "MARGIN").expect("a MARGIN column")];
    assert_eq!(cell.starts_with("fragile:"), margin["fragile"] == true, "{wide}");
}

/// W2 with the documents of `extra` (tests/fixtures/workloads) appended, the ClusterInfo's
/// `serverVersion` line followed by `info`.
fn with_workloads(extra: &[&str], info: &str) -> tempfile::NamedTempFile {
    let mut text =
        read(&path(W02)).replace("serverVersion: v1.36.2", &format!("serverVersion: v1.36.2{info}"));
    for name in extra {
        text.push_str("---\n");
        text.push_str(&read(&path(&format!("tests/fixtures/workloads/{name}.yaml"))));
    }
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

fn explain(file: &tempfile::NamedTempFile, json: bool) -> String {
    let mut cmd = topo();
    cmd.args(["explain", "svc/svc", "-n", "w", "-f"]).arg(file.path());
    if json {
        cmd.args(["-o", "json"]);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn explain_certifies_the_workload_over_its_hpa_range_and_spread() {
    // The Deployment's HPA says 2..9, its template spreads by zone with maxSkew 1 DoNotSchedule;
    // the Service's fourth endpoint has no controlled Pod and is held, so count n is n + 1 endpoints.
    let file = with_workloads(&["apps", "pods"], "");
    let doc: serde_json::Value = serde_json::from_str(&explain(&file, true)).unwrap();
    let certs = &doc["certificates"];
    assert!(certs.get("unknown").is_none(), "{certs}");
    let w = &certs["workloads"][0];
    assert_eq!((w["kind"].as_str(), w["name"].as_str()), (Some("Deployment"), Some("svc")));
    assert_eq!(w["range"], serde_json::json!({"from": "Autoscaler", "name": "svc"}));
    assert_eq!(w["others"], 1);
    let cert = &w["certificate"];
    assert_eq!((cert["min"].as_i64(), cert["max"].as_i64()), (Some(2), Some(9)));
    assert_eq!(cert["spread"], serde_json::json!({"maxSkew": 1, "hard": true}));
    for n in 2..=9 {
        let exception = cert["exceptions"].as_array().unwrap().iter().find(|e| e["count"] == n);
        assert_eq!(in_ranges(&cert["holds"], n), holds(n + 1), "count {n}");
        assert_eq!(exception.is_some_and(|e| e["anyPlacement"] == true), !holds(n + 1), "count {n}");
    }
    // Without a UTF-8 locale (the tests clear it) the table is ASCII: ranges are written 2-9.
    let text = explain(&file, false);
    let section = text.split("\nStability\n").nth(1).expect("a Stability section");
    assert!(
        section.contains("Certificate of deployment/svc over 2-9 replica(s) (hpa/svc): Hints hold"),
        "{section}"
    );
    assert!(section.contains("1 other endpoint(s)"), "{section}");
}

#[test]
fn without_workloads_the_certificate_is_unknown_in_one_line_saying_why() {
    for (info, why) in [
        ("", "horizontalpodautoscalers not in the dump"),
        (
            "\n  workloadReads:\n    Pods: forbidden\n    Deployments: forbidden\n    StatefulSets: forbidden\n    \
             ReplicaSets: forbidden\n    HorizontalPodAutoscalers: forbidden",
            "horizontalpodautoscalers forbidden to this user",
        ),
    ] {
        let file = with_workloads(&[], info);
        let doc: serde_json::Value = serde_json::from_str(&explain(&file, true)).unwrap();
        assert_eq!(doc["certificates"]["unknown"]["reason"], "WorkloadsNotRead", "{info}");
        assert_eq!(doc["certificates"]["workloads"], serde_json::json!([]));
        let text = explain(&file, false);
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("Certificate: unknown")).collect();
        assert_eq!(lines.len(), 1, "{text}");
        assert!(
            lines[0].contains("(pods, deployments, statefulsets, replicasets, ")
                && lines[0].contains(why)
                && lines[0].contains("deploy/rbac.yaml"),
            "{text}"
        );
    }
}

#[test]
fn the_certificate_is_in_the_html_page_too() {
    let file = with_workloads(&["apps", "pods"], "");
    let out =
        topo().args(["explain", "svc/svc", "-n", "w", "-o", "html", "-f"]).arg(file.path()).output().unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    let at = html.find("<div class=\"certificate\">").expect("a certificate block");
    assert!(
        html[at..].contains("Certificate of deployment/svc over 2")
            && html[at..].contains("9 replica(s) (hpa/svc)"),
        "{}",
        &html[at..]
    );
}

/// W14's `svc-close` (PreferClose): ready endpoints a:1, b:3, c:2 on Nodes of equal CPU.
const W14: &str = "tests/fixtures/w14-traffic-distribution.yaml";

#[test]
fn close_hints_flag_endpoints_over_twice_an_even_share_and_those_left_idle() {
    let ready = [("a", 1.0), ("b", 3.0), ("c", 2.0)];
    let n: f64 = ready.iter().map(|(_, r)| r).sum();
    for weights in
        [&[("a", 2.0), ("b", 1.0), ("c", 1.0)][..], &[("a", 1.0), ("b", 1.0)], &[("b", 1.0), ("c", 5.0)]]
    {
        let arg: Vec<String> = weights.iter().map(|(z, w)| format!("{z}={w}")).collect();
        let doc = json(&["explain", "svc/svc-close", "-n", "w", "-f", W14, "--traffic", &arg.join(",")], 0);
        let load = &doc["families"][0]["load"];
        assert_eq!(load["trafficSource"], "Given", "{load}");
        assert_eq!(load["readyEndpoints"], 6, "{load}");
        // Each zone's callers stay on its own endpoints: zone share / its endpoints, times n.
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        let expected = |zone: &str| {
            let weight = weights.iter().find(|(z, _)| *z == zone).map_or(0.0, |(_, w)| *w);
            let here = ready.iter().find(|(z, _)| *z == zone).unwrap().1;
            weight / total / here * n
        };
        let zones_of = |list: &serde_json::Value| {
            let mut zones: Vec<String> =
                list.as_array().unwrap().iter().map(|e| e["zone"].as_str().unwrap().to_string()).collect();
            zones.sort();
            zones
        };
        let mut over: Vec<String> = Vec::new();
        let mut idle: Vec<String> = Vec::new();
        for (zone, count) in ready {
            let list = if expected(zone) > 2.0 {
                &mut over
            } else if expected(zone) == 0.0 {
                &mut idle
            } else {
                continue;
            };
            list.extend(std::iter::repeat_n(zone.to_string(), count as usize));
        }
        assert_eq!(zones_of(&load["overloaded"]), over, "{arg:?}: {load}");
        assert_eq!(zones_of(&load["idle"]), idle, "{arg:?}: {load}");
        let max = ready.iter().map(|(z, _)| expected(z)).fold(0.0, f64::max);
        assert!((load["maxLoad"].as_f64().unwrap() - max).abs() < 1e-9, "{arg:?}: {load}");
    }
    let out = topo()
        .args(["explain", "svc/svc-close", "-n", "w", "-f", W14, "--traffic", "a=1,b=1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.contains("no overload safeguard")).expect("a load line");
    assert!(line.contains("no request at all:") && line.contains("(zone c)"), "{line}");
}
