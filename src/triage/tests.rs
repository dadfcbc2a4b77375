use std::collections::{BTreeMap, BTreeSet};

use topo_engine::report::reason::Facts;

use super::rules::Exclude;
use super::*;

fn family(verdict: Verdict, codes: &[ReasonCode]) -> CheckFamily {
    CheckFamily {
        address_type: "IPv4".into(),
        verdict,
        reasons: codes.iter().map(|c| Reason::with(*c, Facts::default())).collect(),
        replicas_needed: None,
        cross_zone_after_sync: None,
        cross_zone_now: None,
        margin_points: None,
        fragile: None,
        ignored: Vec::new(),
    }
}

fn row(namespace: &str, name: &str, mode: Mode, families: Vec<CheckFamily>) -> CheckRow {
    CheckRow {
        service: ServiceRef { namespace: namespace.into(), name: name.into() },
        mode,
        families,
        certificates: None,
    }
}

/// A cluster in namespace, name order: kubernetes (Unmanaged, None), a plain Service, a blocked
/// Auto one, a drifting one, an Unmanaged one that asks for hints.
fn report() -> CheckReport {
    let mut blocked = family(Verdict::Blocked, &[ReasonCode::OverloadThreshold]);
    blocked.replicas_needed = Some(6);
    blocked.cross_zone_now = Some(0.667);
    let mut drift = family(Verdict::Drift, &[ReasonCode::HintsMissing]);
    drift.cross_zone_now = Some(0.2);
    // After the next sync the order would be the other way round: the sort follows today's column.
    drift.cross_zone_after_sync = Some(0.9);
    let services = vec![
        row("default", "kubernetes", Mode::None, vec![family(Verdict::Unmanaged, &[ReasonCode::NoSelector])]),
        row("demo", "plain", Mode::None, vec![family(Verdict::NotEnabled, &[ReasonCode::NotEnabled])]),
        row("demo", "web", Mode::Auto, vec![blocked]),
        row("kube-system", "dns", Mode::PreferClose, vec![drift]),
        row("shop", "manual", Mode::Auto, vec![family(Verdict::Unmanaged, &[ReasonCode::NoSelector])]),
    ];
    CheckReport {
        kubernetes_version: "1.36".into(),
        kubernetes_version_basis: None,
        summary: CheckSummary::of(&services),
        services,
        partial: Vec::new(),
    }
}

fn names(t: &Triaged) -> Vec<String> {
    t.report.services.iter().map(|r| format!("{}/{}", r.service.namespace, r.service.name)).collect()
}

fn run(view: &View, rules: &IgnoreRules, fail_on: FailOn) -> Triaged {
    triage(report(), &|_| None, view, rules, fail_on)
}

#[test]
fn nobody_asked_is_hidden_and_counted_unless_show_all() {
    let t = run(&View::default(), &IgnoreRules::default(), FailOn::Any);
    assert_eq!(names(&t), ["demo/web", "kube-system/dns", "shop/manual"]);
    assert_eq!((t.report.summary.services, t.report.summary.hidden), (3, 2));
    assert_eq!(t.failing, [true, true, true]);
    let all = run(&View { show_all: true, ..View::default() }, &IgnoreRules::default(), FailOn::Any);
    assert_eq!(all.report.services.len(), 5);
    assert_eq!(all.report.summary.hidden, 0);
    // default/kubernetes and demo/plain are listed but never fail, even at --fail-on any.
    assert_eq!(all.failing, [false, false, true, true, true]);
}

#[test]
fn quiet_is_not_enabled_or_unmanaged_without_a_mode() {
    let r = report();
    let quiet: Vec<bool> = r.services.iter().map(quiet).collect();
    assert_eq!(quiet, [true, true, false, false, false]);
}

#[test]
fn filters_keep_any_of_their_values_and_count_the_rest() {
    let cases: Vec<(View, Vec<&str>)> = vec![
        (View { verdicts: vec![Verdict::Drift], ..View::default() }, vec!["kube-system/dns"]),
        (
            View { verdicts: vec![Verdict::Drift, Verdict::Blocked], ..View::default() },
            vec!["demo/web", "kube-system/dns"],
        ),
        (View { reasons: vec![ReasonCode::NoSelector], ..View::default() }, vec!["shop/manual"]),
        (View { modes: vec![Mode::Auto], ..View::default() }, vec!["demo/web", "shop/manual"]),
        (
            View { exclude_namespaces: vec![NamePattern::new("kube-*").unwrap()], ..View::default() },
            vec!["demo/web", "shop/manual"],
        ),
    ];
    for (view, want) in cases {
        let t = run(&view, &IgnoreRules::default(), FailOn::Drift);
        assert_eq!(names(&t), want, "{view:?}");
        assert_eq!(t.report.summary.filtered, 3 - want.len(), "{view:?}");
        assert_eq!(t.report.summary.services, want.len());
    }
}

#[test]
fn sort_orders() {
    let by =
        |sort_by| names(&run(&View { sort_by, ..View::default() }, &IgnoreRules::default(), FailOn::Drift));
    assert_eq!(by(SortBy::Namespace), ["demo/web", "kube-system/dns", "shop/manual"]);
    assert_eq!(by(SortBy::Name), ["kube-system/dns", "shop/manual", "demo/web"]);
    assert_eq!(by(SortBy::Verdict), ["kube-system/dns", "demo/web", "shop/manual"]);
    assert_eq!(by(SortBy::CrossZone), ["demo/web", "kube-system/dns", "shop/manual"]);
    assert_eq!(by(SortBy::Replicas), ["demo/web", "kube-system/dns", "shop/manual"]);
}

#[test]
fn ignore_rules_set_reasons_aside_and_such_families_never_fail() {
    let annotation = |s: &ServiceRef| (s.name == "web").then_some("OverloadThreshold");
    let t = triage(report(), &annotation, &View::default(), &IgnoreRules::default(), FailOn::Any);
    let web = &t.report.services[0].families[0];
    assert!(web.reasons.is_empty());
    assert_eq!(web.ignored[0].code, ReasonCode::OverloadThreshold);
    assert_eq!(t.report.summary.ignored, 1);
    assert_eq!(t.failing, [false, true, true]);

    let rules = IgnoreRules {
        excludes: vec![Exclude {
            namespace: NamePattern::new("kube-*").unwrap(),
            name: NamePattern::any(),
            reasons: None,
        }],
        levels: BTreeMap::new(),
    };
    let t = run(&View::default(), &rules, FailOn::Any);
    assert_eq!(t.failing, [true, false, true]);
    // --reason looks at the reasons kept: an ignored one no longer selects the Service.
    let view = View { reasons: vec![ReasonCode::HintsMissing], ..View::default() };
    assert!(run(&view, &rules, FailOn::Any).report.services.is_empty());
}

#[test]
fn levels_weigh_reasons_over_verdicts() {
    let levels = |pairs: &[(ReasonCode, Level)]| IgnoreRules {
        excludes: Vec::new(),
        levels: pairs.iter().copied().collect(),
    };
    // warning: the Drift of dns no longer fails.
    let t = run(&View::default(), &levels(&[(ReasonCode::HintsMissing, Level::Warning)]), FailOn::Drift);
    assert_eq!(t.failing, [false, false, false]);
    // error: the Blocked of web fails even at --fail-on drift; never at --fail-on none.
    let error = levels(&[(ReasonCode::OverloadThreshold, Level::Error)]);
    assert_eq!(run(&View::default(), &error, FailOn::Drift).failing, [true, true, false]);
    assert_eq!(run(&View::default(), &error, FailOn::None).failing, [false, false, false]);
    // ignore: like an exclude for the code everywhere.
    let t = run(&View::default(), &levels(&[(ReasonCode::NoSelector, Level::Ignore)]), FailOn::Any);
    assert_eq!(t.failing, [true, true, false]);
    assert_eq!(t.report.services[2].families[0].ignored.len(), 1);
}

#[test]
fn unknown_annotation_names_are_reported() {
    let annotation = |s: &ServiceRef| (s.name == "web").then_some("Overload, OverloadThreshold");
    let t = triage(report(), &annotation, &View::default(), &IgnoreRules::default(), FailOn::Drift);
    assert_eq!(t.unknown_codes.len(), 1);
    assert_eq!(t.unknown_codes[0].1, ["Overload"]);
    let all: BTreeSet<ReasonCode> = t.report.services[0].families[0].ignored.iter().map(|r| r.code).collect();
    assert_eq!(all, BTreeSet::from([ReasonCode::OverloadThreshold]));
}

#[test]
fn fail_on_fragile_adds_fragile_auto_families_to_what_blocked_fails() {
    let active = |fragile: Option<bool>| {
        let mut f = family(Verdict::Active, &[]);
        f.fragile = fragile;
        f
    };
    let rows = [
        row("a", "steady", Mode::Auto, vec![active(Some(false))]),
        row("a", "edge", Mode::Auto, vec![active(Some(true))]),
        row("a", "close", Mode::PreferClose, vec![active(None)]),
        row("a", "web", Mode::Auto, vec![family(Verdict::Blocked, &[ReasonCode::OverloadThreshold])]),
    ];
    let rules = IgnoreRules::default();
    let failing = |level| rows.iter().map(|r| fails(r, &rules, level)).collect::<Vec<_>>();
    assert_eq!(failing(FailOn::Fragile), [false, true, false, true]);
    assert_eq!(failing(FailOn::Blocked), [false, false, false, true]);
    assert_eq!(failing(FailOn::Any), [false, false, false, true], "any is about verdicts only");
}
