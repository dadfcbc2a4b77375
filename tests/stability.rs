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
