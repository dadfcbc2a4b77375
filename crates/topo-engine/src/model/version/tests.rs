use super::*;

#[test]
fn parses_the_forms_users_type() {
    for (text, minor) in [("1.36", 36), ("v1.33.4-eks-1234", 33), ("1.21", 21), ("1.37.0", 37)] {
        assert_eq!(text.parse::<Behaviour>().unwrap().minor, minor, "{text}");
    }
    for bad in ["2.1", "1.20", "1.38", "1", "abc", "", "1.x", "1.33.x", "1.33.", "1.33-rc.1"] {
        assert!(bad.parse::<Behaviour>().is_err(), "{bad}");
    }
}

#[test]
fn the_patch_is_kept_and_a_bare_minor_is_its_newest_patch() {
    for (text, patch) in [("1.33.4", Some(4)), ("v1.33.7-eks-1234", Some(7)), ("v1.33.0+k3s1", Some(0))] {
        assert_eq!(text.parse::<Behaviour>().unwrap(), Behaviour { minor: 33, patch }, "{text}");
    }
    let bare: Behaviour = "1.33".parse().unwrap();
    assert_eq!((bare.patch, bare.to_string()), (None, "1.33".to_string()));
    assert_eq!(Behaviour::patch(33, 4).to_string(), "1.33.4");
    assert_eq!(Behaviour::patch(36, 2).to_string(), "1.36", "every 1.36 patch behaves the same");
    assert!(Behaviour::patch(33, 99) < bare && bare < Behaviour::patch(34, 0));
    assert_eq!(Behaviour::patch(33, 4).newest_patch(), bare);
}

#[test]
fn kube_proxy_runs_at_an_older_kubelet_version_never_a_newer_one() {
    let on = |cp: Behaviour, kubelet: &str| kube_proxy_on_node(cp, release_of(kubelet));
    let cp = Behaviour::patch(33, 13);
    assert_eq!(on(cp, "v1.30.14-eks-1"), Some(Behaviour::patch(30, 14)));
    assert_eq!(on(cp, "v1.33.4"), Some(Behaviour::patch(33, 4)), "before #133527");
    for same in ["v1.33.7", "v1.33.13", "v1.34.1", "v1.40.0", "garbage", ""] {
        assert_eq!(on(cp, same), None, "{same:?}");
    }
    assert_eq!(on(cp, "v1.19.2"), Some(Behaviour::new(OLDEST_MINOR)));
    assert_eq!(on(Behaviour::new(36), "v1.36.0"), None);
    assert_eq!(on(Behaviour::new(33), "v1.33.4"), None, "a bare minor: its newest patch everywhere");
    assert_eq!(kube_proxy_on_node(cp, None), None);
}

#[test]
fn skip_log_backports_per_patch() {
    let v2 = |m, p| Behaviour::patch(m, p).proxy_skip_logs_at_v2();
    assert!(!v2(29, 4) && v2(29, 5) && !v2(28, 9) && v2(28, 10) && !v2(27, 16) && v2(30, 0));
    assert!(Behaviour::new(28).proxy_skip_logs_at_v2() && !Behaviour::new(27).proxy_skip_logs_at_v2());
    let named = |m, p| Behaviour::patch(m, p).proxy_names_unhinted_endpoint();
    assert!(named(29, 0) && !named(28, 9) && named(28, 11));
    let on = |cp, kubelet: &str| kube_proxy_on_node(cp, release_of(kubelet));
    assert_eq!(on(Behaviour::patch(29, 15), "v1.29.4"), Some(Behaviour::patch(29, 4)));
    assert_eq!(on(Behaviour::patch(29, 15), "v1.29.5"), None);
}

#[test]
fn the_133_backport_starts_at_patch_6() {
    let skips = |b: Behaviour| b.proxy_skips_topology_without_endpoints();
    assert!(!skips(Behaviour::patch(33, 5)) && skips(Behaviour::patch(33, 6)));
    assert!(skips(Behaviour::new(33)) && skips(Behaviour::patch(34, 0)) && !skips(Behaviour::new(32)));
}

#[test]
fn newer_servers_are_modelled_as_the_newest_and_older_ones_refused() {
    assert_eq!(Modelled::of(minor_of("v1.38.1-gke.100").unwrap()), Modelled::AsNewest(38));
    assert_eq!(Modelled::of(20), Modelled::TooOld(20));
    assert_eq!(Modelled::of(NEWEST_MINOR), Modelled::Exactly(Behaviour::new(NEWEST_MINOR)));
    assert_eq!(Behaviour::default(), Behaviour::new(NEWEST_MINOR));
}

#[test]
fn kubelet_minors_span_the_nodes_that_report_one() {
    let k = KubeletMinors::of(["v1.29.3-eks-1", "", "v1.28.9", "garbage", "v1.29.0"]).unwrap();
    assert_eq!(k, KubeletMinors { lowest: 28, highest: 29, nodes: 3 });
    assert_eq!(KubeletMinors::of(["", "x"]), None);
}

#[test]
fn gate_table_matches_the_version_table() {
    let v = |m| Behaviour::new(m);
    assert!(!v(33).prefer_same_traffic_distribution_gate());
    assert!(v(34).prefer_same_traffic_distribution_gate());
    assert!(!v(30).service_traffic_distribution_gate());
    assert!(v(31).service_traffic_distribution_gate());
    assert!(v(32).writes_empty_zone_hints() && !v(33).writes_empty_zone_hints());
    assert!(!v(25).controller_emits_events() && v(26).controller_emits_events());
    assert_eq!(v(33).proxy_era(), ProxyEra::V133);
    assert_eq!(v(36).proxy_era(), ProxyEra::Newest);
}
