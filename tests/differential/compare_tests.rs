//! Unit tests of the comparison rules (compare.rs).

use super::*;

fn counts(pairs: &[(&str, i64)]) -> Counts {
    pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

fn zone(z: &str) -> Option<HintsOut> {
    Some(HintsOut { for_zones: Some(vec![z.into()]), for_nodes: None })
}

fn enabled(family: &str) -> Event {
    Event {
        event_type: "Normal".into(),
        reason: ENABLED_REASON.into(),
        message: format!("Topology Aware Hints has been enabled, addressType: {family}"),
    }
}

/// Two endpoints in zone a (slice s), one in zone b; the second of a moves to b.
fn family(hints: [Option<HintsOut>; 3]) -> OurFamily {
    let keys = ["s/0/10.0.0.1", "s/1/10.0.0.2", "s/2/10.0.0.3"];
    let zones = ["a", "a", "b"];
    let mut c = Counts::new();
    for h in hints.iter().flatten() {
        for z in h.for_zones.iter().flatten() {
            *c.entry(z.clone()).or_default() += 1;
        }
    }
    OurFamily {
        family: "IPv4".into(),
        no_managed_slices: false,
        changed: vec!["s".into()],
        event: Some(enabled("IPv4")),
        counts: c.clone(),
        live_counts: Counts::new(),
        count_outcomes: vec![c],
        hints: keys.iter().zip(hints).map(|(k, h)| (k.to_string(), h)).collect(),
        endpoints: keys
            .iter()
            .zip(zones)
            .map(|(k, z)| (k.to_string(), EndpointMeta { zone: Some(z.into()), ready: true }))
            .collect(),
        overloaded: Some(false),
        overloaded_after_sync: Some(false),
    }
}

fn result_of(f: &OurFamily) -> SyncResult {
    SyncResult {
        changed: f.changed.clone(),
        events: f.event.iter().cloned().collect(),
        counts: f.counts.clone(),
        hints: f.hints.clone(),
    }
}

fn oracle(families: Vec<OracleFamily>) -> OracleResult {
    OracleResult {
        id: "t".into(),
        k8s_version: "1.36".into(),
        runs: 64,
        error: None,
        outcomes: vec![OracleOutcome { path: "annotation".into(), families, overloaded: false }],
        seen: vec![64],
        proxy: None,
    }
}

fn ours(f: OurFamily) -> Ours {
    Ours { path: "annotation".into(), steady: vec![f], fresh: None, proxy: BTreeMap::new() }
}

#[test]
fn identical_answers_match() {
    let f = family([zone("a"), zone("b"), zone("b")]);
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&f)),
        fresh: None,
        overloaded: None,
    }]);
    assert_eq!(compare(&ours(f), &o), Vec::<String>::new());
}

#[test]
fn which_endpoint_of_a_giving_zone_moves_is_free() {
    let mine = family([zone("a"), zone("b"), zone("b")]);
    let theirs = family([zone("b"), zone("a"), zone("b")]);
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&theirs)),
        fresh: None,
        overloaded: None,
    }]);
    assert_eq!(compare(&ours(mine), &o), Vec::<String>::new());
}

#[test]
fn a_move_out_of_a_zone_that_does_not_give_is_a_mismatch() {
    // Ours moves zone b's endpoint to a; upstream moves one of a's to b.
    let mine = family([zone("a"), zone("a"), zone("a")]);
    let theirs = family([zone("a"), zone("b"), zone("b")]);
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&theirs)),
        fresh: None,
        overloaded: None,
    }]);
    let errors = compare(&ours(mine), &o);
    assert!(errors.iter().any(|e| e.contains("counts")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("moved endpoints")), "{errors:?}");
}

#[test]
fn leniency_is_for_the_annotation_path_only() {
    let mine = family([zone("a"), zone("b"), zone("b")]);
    let theirs = family([zone("b"), zone("a"), zone("b")]);
    let mut o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&theirs)),
        fresh: None,
        overloaded: None,
    }]);
    o.outcomes[0].path = "trafficDistribution".into();
    let mut ours = ours(mine);
    ours.path = "trafficDistribution".into();
    assert_eq!(compare(&ours, &o).len(), 2);
}

#[test]
fn second_family_may_lack_the_enabled_event() {
    let mut v6 = family([zone("a"), zone("b"), zone("b")]);
    v6.family = "IPv6".into();
    v6.event = Some(enabled("IPv6"));
    let v4 = family([zone("a"), zone("b"), zone("b")]);
    let mut quiet = result_of(&v6);
    quiet.events.clear();
    let o = oracle(vec![
        OracleFamily { family: "IPv4".into(), steady: Some(result_of(&v4)), fresh: None, overloaded: None },
        OracleFamily { family: "IPv6".into(), steady: Some(quiet.clone()), fresh: None, overloaded: None },
    ]);
    let mut both = ours(v4.clone());
    both.steady.push(v6);
    assert_eq!(compare(&both, &o), Vec::<String>::new());
    // Single-stack: a missing event is a mismatch.
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(SyncResult { events: vec![], ..result_of(&v4) }),
        fresh: None,
        overloaded: None,
    }]);
    assert_eq!(compare(&ours(v4), &o).len(), 1);
}

#[test]
fn dual_stack_families_match_outcomes_independently() {
    // Upstream's random choices of the two families do not interact: runs gave (v4 A, v6 X)
    // and (v4 B, v6 Y); our (v4 A, v6 Y) is valid although no single run produced it.
    let fam = |name: &str, hints: [Option<HintsOut>; 3]| {
        let mut f = family(hints);
        f.family = name.into();
        f.event = Some(enabled(name));
        f.count_outcomes = vec![counts(&[("a", 1), ("b", 2)]), counts(&[("a", 2), ("b", 1)])];
        f
    };
    let (v4_a, v4_b) =
        (fam("IPv4", [zone("a"), zone("b"), zone("b")]), fam("IPv4", [zone("a"), zone("a"), zone("b")]));
    let (v6_x, v6_y) =
        (fam("IPv6", [zone("a"), zone("a"), zone("b")]), fam("IPv6", [zone("a"), zone("b"), zone("b")]));
    let outcome = |v4: &OurFamily, v6: &OurFamily| OracleOutcome {
        path: "annotation".into(),
        families: vec![
            OracleFamily {
                family: "IPv4".into(),
                steady: Some(result_of(v4)),
                fresh: None,
                overloaded: None,
            },
            OracleFamily {
                family: "IPv6".into(),
                steady: Some(result_of(v6)),
                fresh: None,
                overloaded: None,
            },
        ],
        overloaded: false,
    };
    let mut o = oracle(vec![]);
    o.outcomes = vec![outcome(&v4_a, &v6_x), outcome(&v4_b, &v6_y)];
    o.seen = vec![32, 32];
    let mut mine = ours(v4_a);
    mine.steady.push(v6_y);
    assert_eq!(compare(&mine, &o), Vec::<String>::new());
    // A family answer no run produced is still a mismatch.
    mine.steady[1] = fam("IPv6", [zone("b"), zone("b"), zone("b")]);
    mine.steady[1].count_outcomes.push(counts(&[("b", 3)]));
    assert!(!compare(&mine, &o).is_empty());
}

#[test]
fn dual_stack_overload_flags_are_judged_per_family() {
    // Seed 47337661 case 3907: each family's canonical outcome (not overloaded) was sampled,
    // but never both in one run, so every run's Service-wide flag was true.
    let fam = |name: &str, after: bool| {
        let mut f = family([zone("a"), zone("b"), zone("b")]);
        f.family = name.into();
        f.event = Some(enabled(name));
        f.overloaded_after_sync = Some(after);
        f
    };
    let outcome = |v4: bool, v6: bool| OracleOutcome {
        path: "annotation".into(),
        families: vec![
            OracleFamily {
                family: "IPv4".into(),
                steady: Some(result_of(&fam("IPv4", v4))),
                fresh: None,
                overloaded: Some(v4),
            },
            OracleFamily {
                family: "IPv6".into(),
                steady: Some(result_of(&fam("IPv6", v6))),
                fresh: None,
                overloaded: Some(v6),
            },
        ],
        overloaded: v4 || v6,
    };
    let mut o = oracle(vec![]);
    o.outcomes = vec![outcome(true, false), outcome(false, true)];
    o.seen = vec![32, 32];
    let mut mine = ours(fam("IPv4", false));
    mine.steady.push(fam("IPv6", false));
    assert_eq!(compare(&mine, &o), Vec::<String>::new());
    // A family flag no run of that family produced is a mismatch.
    o.outcomes = vec![outcome(true, false), outcome(true, true)];
    let errors = compare(&mine, &o);
    assert!(errors.iter().any(|e| e.contains("IPv4: overloaded after the sync: ours false")), "{errors:?}");
}

#[test]
fn any_matching_outcome_is_enough_and_every_oracle_count_must_be_enumerated() {
    let f = family([zone("a"), zone("b"), zone("b")]);
    let other = family([zone("a"), zone("a"), zone("b")]);
    let mut o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&other)),
        fresh: None,
        overloaded: None,
    }]);
    o.outcomes.push(OracleOutcome {
        path: "annotation".into(),
        families: vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&f)),
            fresh: None,
            overloaded: None,
        }],
        overloaded: false,
    });
    let mut mine = ours(f);
    let errors = compare(&mine, &o);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("not in our countOutcomes"), "{errors:?}");
    mine.steady[0].count_outcomes.push(counts(&[("a", 2), ("b", 1)]));
    assert_eq!(compare(&mine, &o), Vec::<String>::new());
}

#[test]
fn fresh_may_write_fewer_slices_than_the_oracle_creates() {
    let mut f = family([zone("a"), zone("b"), zone("b")]);
    let mut theirs = result_of(&f);
    theirs.changed.push("empty".into());
    f.changed.clear();
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&family([zone("a"), zone("b"), zone("b")]))),
        fresh: Some(theirs),
        overloaded: None,
    }]);
    let mut mine = ours(family([zone("a"), zone("b"), zone("b")]));
    mine.fresh = Some(vec![f.clone()]);
    assert_eq!(compare(&mine, &o), Vec::<String>::new());
    f.changed = vec!["other".into()];
    mine.fresh = Some(vec![f]);
    assert_eq!(compare(&mine, &o).len(), 1);
}

#[test]
fn overload_compared_only_on_the_same_basis() {
    let mut f = family([zone("a"), zone("b"), zone("b")]);
    f.overloaded = Some(true);
    let o = oracle(vec![OracleFamily {
        family: "IPv4".into(),
        steady: Some(result_of(&f)),
        fresh: None,
        overloaded: None,
    }]);
    assert_eq!(compare(&ours(f.clone()), &o).len(), 1);
    f.live_counts = counts(&[("a", 3)]);
    assert_eq!(compare(&ours(f), &o), Vec::<String>::new());
}

#[test]
fn proxy_cells_are_sets_and_ports_are_stripped() {
    let cell =
        |c: &[&str]| ProxyPort { cluster: Some(c.iter().map(|s| s.to_string()).collect()), local: None };
    let theirs: BTreeMap<String, BTreeMap<String, ProxyNodeOut>> = [(
        "IPv6".to_string(),
        [(
            "n1".to_string(),
            ProxyNodeOut {
                ports: [("http/TCP".to_string(), vec![cell(&["[fd00::1]:80"]), cell(&["[fd00::2]:80"])])]
                    .into(),
            },
        )]
        .into(),
    )]
    .into();
    let mine = |eps: &[&str]| -> BTreeMap<String, OurProxy> {
        [(
            "IPv6".to_string(),
            OurProxy {
                port: Some("http/TCP".into()),
                local: false,
                nodes: [("n1".to_string(), eps.iter().map(|s| s.to_string()).collect())].into(),
            },
        )]
        .into()
    };
    assert!(compare_proxy(&mine(&["fd00::2"]), &theirs).is_empty());
    assert_eq!(compare_proxy(&mine(&["fd00::3"]), &theirs).len(), 1);
    assert_eq!(address_of("10.0.0.1:8080"), "10.0.0.1");
}
