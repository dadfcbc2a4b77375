//! Per-era kube-proxy behaviour: annotation rules (1.24/1.27/1.30) and skip logs (1.27–1.36).

use super::*;

fn categorize(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node: &str,
    zone: Option<&str>,
    minor: u32,
) -> Categorized {
    categorize_endpoints(
        endpoints,
        svc,
        &ProxyNode { name: node, zone, windows: false },
        Behaviour::new(minor),
    )
}

fn lines(c: &Categorized) -> Vec<(u8, String)> {
    c.logs.iter().map(|log| (log.verbosity, log.line())).collect()
}

fn annotated(key: &str, value: &str) -> ProxyServiceInfo {
    ProxyServiceInfo { hints_annotation: Some((key.to_string(), value.to_string())), ..info() }
}

// topology_test.go at v1.24.0 / v1.27.0 / v1.30.0: the hints-annotation rows (docs/behaviour.md#proxy-eras)
#[test]
fn test_categorize_endpoints_annotation_eras() {
    let deprecated = ANNOTATION_TOPOLOGY_AWARE_HINTS;
    let filtered = set(&["10.1.2.3", "10.1.2.6"]);
    let everything = set(&["10.1.2.3", "10.1.2.4", "10.1.2.5", "10.1.2.6"]);
    let cases = [
        ("hints enabled, hints annotation == auto", 24, Some("auto"), &filtered),
        ("normal endpoint filtering, Auto annotation", 24, Some("Auto"), &filtered),
        ("hints, hints annotation == disabled, hints ignored", 24, Some("disabled"), &everything),
        (
            "hints, hints annotation == aUto (wrong capitalization), hints ignored",
            24,
            Some("aUto"),
            &everything,
        ),
        ("hints, hints annotation empty, hints ignored", 24, None, &everything),
        (
            "hints, hints annotation == aUto (wrong capitalization), hints no longer ignored",
            27,
            Some("aUto"),
            &filtered,
        ),
        ("1.27: PreferZone enables kube-proxy's use of hints", 27, Some("PreferZone"), &filtered),
        ("hints, hints annotation == disabled, hints ignored (1.29)", 29, Some("Disabled"), &everything),
        ("hints, hints annotation empty, hints ignored (1.30, gate off)", 30, None, &everything),
        (
            "hints, hints annotation empty but trafficDist feature gate enabled, hints are not ignored",
            31,
            None,
            &filtered,
        ),
        (
            "hints disabled, trafficDist feature gate enabled, hints are not ignored",
            32,
            Some("disabled"),
            &filtered,
        ),
        ("newest: no annotation needed", 36, None, &filtered),
    ];
    for (name, minor, value, want) in cases {
        let svc = value.map_or_else(info, |v| annotated(deprecated, v));
        let got = categorize(&abca(), &svc, "", Some("zone-a"), minor);
        assert_eq!(got.cluster.unwrap().into_iter().collect::<BTreeSet<_>>(), *want, "{name}");
        let not_used = got.reason.as_ref().is_some_and(|r| r.code == ReasonCode::ProxyTopologyNotUsed);
        assert_eq!(not_used, want.len() == 4, "{name}: reason {:?}", got.reason);
    }
    let auo = categorize(&abca(), &annotated(deprecated, "aUto"), "", Some("zone-a"), 24);
    let want = r#""Skipping topology aware endpoint filtering since Service has unexpected value" annotationTopologyAwareHints="service.kubernetes.io/topology-aware-hints" hints="aUto""#;
    assert_eq!(lines(&auo), [(0, want.to_string())]);
    // Before 1.27 kube-proxy reads only the deprecated key.
    let mut svc = service().annotation(ANNOTATION_TOPOLOGY_MODE, "Auto");
    assert_eq!(
        ProxyServiceInfo::from_service(&svc, &svc.ports[0], Behaviour::new(26)).hints_annotation,
        None
    );
    svc = svc.annotation(deprecated, "Disabled");
    let read = ProxyServiceInfo::from_service(&svc, &svc.ports[0], Behaviour::new(27)).hints_annotation;
    assert_eq!(read, Some((deprecated.to_string(), "Disabled".to_string())));
}

#[test]
fn skip_logs_per_era() {
    let svc = annotated(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto");
    let missing = {
        let mut e = abca();
        e[0].zone_hints = None;
        e
    };
    let s = r#"service="10.96.0.10:80/TCP""#;
    let skip = "Skipping topology aware endpoint filtering since";
    let same_zone = "Ignoring same-zone topology hints for service since";
    // 1.34+: with the PreferSameTrafficDistribution gate on, zone-only hints first log the V7 node line.
    let node_line = (
        7,
        format!(
            r#""Ignoring same-node topology hints for service since one or more endpoints is missing a node hint" {s}"#
        ),
    );
    type Case = (&'static str, u32, Vec<ProxyEndpoint>, Option<&'static str>, Vec<(u8, String)>);
    let cases: Vec<Case> = vec![
        (
            "W1 zone-c, newest",
            36,
            abca(),
            Some("zone-d"),
            vec![
                node_line.clone(),
                (2, format!(r#""{same_zone} no hints were provided for zone" {s} zone="zone-d""#)),
            ],
        ),
        (
            "no zone label, newest",
            36,
            abca(),
            None,
            vec![
                node_line.clone(),
                (
                    2,
                    format!(r#""{same_zone} node is missing label" {s} label="topology.kubernetes.io/zone""#),
                ),
            ],
        ),
        (
            "missing zone hint, newest",
            36,
            missing.clone(),
            Some("zone-a"),
            vec![
                node_line,
                (7, format!(r#""{same_zone} one or more endpoints is missing a zone hint" {s}"#)),
            ],
        ),
        (
            "1.32: hint checked before label",
            32,
            missing.clone(),
            None,
            vec![(
                7,
                format!(r#""{skip} one or more endpoints is missing a zone hint" endpoint="10.1.2.3:80""#),
            )],
        ),
        (
            "1.32: label after a hinted endpoint",
            32,
            abca(),
            None,
            vec![(2, format!(r#""{skip} node is missing label" label="topology.kubernetes.io/zone""#))],
        ),
        (
            "1.32: zone log at V7",
            32,
            abca(),
            Some("zone-d"),
            vec![(7, format!(r#""{skip} no hints were provided for zone" zone="zone-d""#))],
        ),
        (
            "1.30: label checked first",
            30,
            missing.clone(),
            None,
            vec![(2, format!(r#""{skip} node is missing label" label="topology.kubernetes.io/zone""#))],
        ),
        (
            "1.29: V2 with endpoint",
            29,
            missing.clone(),
            Some("zone-a"),
            vec![(
                2,
                format!(r#""{skip} one or more endpoints is missing a zone hint" endpoint="10.1.2.3:80""#),
            )],
        ),
        (
            "1.27: V0 without endpoint",
            27,
            missing.clone(),
            Some("zone-a"),
            vec![(0, format!(r#""{skip} one or more endpoints is missing a zone hint""#))],
        ),
    ];
    for (name, minor, endpoints, zone, want) in cases {
        assert_eq!(lines(&categorize(&endpoints, &svc, "n", zone, minor)), want, "{name}");
    }
    // Patch releases (docs/behaviour.md#era-boundaries): V2 from 1.29.5 and 1.28.10, the endpoint
    // named from 1.29.0 and 1.28.10; a bare minor is its newest patch.
    let hint_line = |version: &str| {
        let node = ProxyNode { name: "n", zone: Some("zone-a"), windows: false };
        lines(&categorize_endpoints(&missing, &svc, &node, version.parse().unwrap()))
    };
    let named = format!(r#""{skip} one or more endpoints is missing a zone hint" endpoint="10.1.2.3:80""#);
    let bare = format!(r#""{skip} one or more endpoints is missing a zone hint""#);
    for (version, want) in [
        ("1.29.4", (0, named.clone())),
        ("1.29.5", (2, named.clone())),
        ("1.28.9", (0, bare)),
        ("1.28.11", (2, named.clone())),
        ("1.28", (2, named)),
    ] {
        assert_eq!(hint_line(version), [want], "{version}");
    }
}

#[test]
fn no_ready_endpoints_logs_per_era() {
    // Only non-ready (crash-looping) endpoints: 1.33–1.35 log spuriously, 1.36 does not (k/k #136743).
    let unready = vec![pe("10.0.0.1").zones(&["zone-a"])];
    for (minor, logged) in [(33, true), (34, true), (35, true), (36, false)] {
        let got = categorize(&unready, &info(), "n", Some("zone-b"), minor);
        assert_eq!(!got.logs.is_empty(), logged, "1.{minor}");
        assert_eq!(got.reason.map(|r| r.code), Some(ReasonCode::ProxyNoReadyEndpoints), "1.{minor}");
    }
    // No endpoints at all: only 1.33.0–1.33.5 log (fixed by k/k #132680 in 1.34, backported to
    // 1.33.6 by #133527: v1.33.6 pkg/proxy/topology.go:156). `1.33` is the newest patch.
    let at = |version: &str| {
        let node = ProxyNode { name: "n", zone: Some("zone-b"), windows: false };
        categorize_endpoints(&[], &info(), &node, version.parse().unwrap())
    };
    for (version, logged) in [("1.33.0", true), ("1.33.5", true), ("1.33.6", false), ("1.33", false)] {
        let got = at(version);
        assert_eq!(!got.logs.is_empty(), logged, "{version}");
        assert_eq!(got.reason.map(|r| r.code), Some(ReasonCode::ProxyNoReadyEndpoints), "{version}");
        // Both sides of the backport program the same (empty) list; 1.34 returns nil lists.
        assert_eq!(got.cluster, Some(vec![]), "{version}");
    }
    assert_eq!(at("1.33.5").logs[0].code, ReasonCode::ProxyZoneNotHinted);
    assert!(at("1.34.0").logs.is_empty() && at("1.34.0").cluster.is_none());
    // ProxyTerminatingEndpoints off before 1.26: no serving+terminating fallback.
    let terminating = vec![pe("10.0.0.1").st()];
    assert_eq!(categorize(&terminating, &info(), "n", None, 25).cluster, Some(vec![]));
    assert_eq!(
        categorize(&terminating, &info(), "n", None, 26).cluster,
        Some(vec!["10.0.0.1:80".to_string()])
    );
    // 1.21–1.23: gate off, hints never used.
    let old =
        categorize(&abca(), &annotated(ANNOTATION_TOPOLOGY_AWARE_HINTS, "Auto"), "n", Some("zone-a"), 23);
    assert_eq!((old.topology_mode, old.cluster.map(|c| c.len())), (None, Some(4)));
}

/// Before 1.24 `FilterEndpoints` (k/k v1.23.17 pkg/proxy/topology.go:29-42) returns every endpoint
/// for an eTP=Local NodePort/LoadBalancer Service before it looks at iTP, and iTP needs its gate
/// (alpha, off, in 1.21); from 1.24 the two policies apply independently. Pinned against the 1.23
/// line by the fixture proxy-pre124-external-local-overrides-internal-local.
#[test]
fn internal_policy_local_per_era() {
    let itp = |svc: &Service, minor| {
        ProxyServiceInfo::from_service(svc, &svc.ports[0], Behaviour::new(minor)).internal_policy_local
    };
    let both = service().itp_local().etp_local_node_port();
    assert!(!itp(&both, 23) && itp(&both, 24), "eTP=Local wins before 1.24");
    let internal = service().itp_local();
    assert!(!itp(&internal, 21) && itp(&internal, 22) && itp(&internal, 23), "gate off in 1.21");
    let mut external_ips = service().itp_local();
    external_ips.externally_accessible = true;
    external_ips.external_traffic_policy = Some("Local".into());
    assert!(itp(&external_ips, 23), "RequestsOnlyLocalTraffic: NodePort/LoadBalancer only");
    let etp = |minor| {
        ProxyServiceInfo::from_service(&external_ips, &external_ips.ports[0], Behaviour::new(minor))
            .external_policy_local
    };
    assert!(!etp(23) && etp(24));
}
