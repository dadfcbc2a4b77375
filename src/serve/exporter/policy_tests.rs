//! The policy of `serve` through the state and a scrape: per-zone series only for Services that
//! asked for hints (or all), objects of filtered namespaces never held, findings set aside by the
//! ignore annotation or the config file still shown, labelled `ignored`.

use std::collections::BTreeSet;

use topo_engine::model::Behaviour;

use super::exposition::Exposition;
use super::format::Format;
use super::metrics::Health;
use super::policy::{Namespaces, PerZone, Policy};
use super::state::Exporter;
use super::store::{Change, Object, Resource};
use crate::fixtures::{node, service, slice};
use crate::triage::{IGNORE_ANNOTATION, IgnoreRules, Level};

/// Three zones; `ns/s0` asks for no hints, `ns/s1` asks for Auto; each has two ready endpoints in
/// zone a and one in zone b, none hinted.
fn exporter(policy: Policy) -> Exporter {
    let mut exporter = Exporter::with_policy(Behaviour::default(), policy);
    for i in 0..3 {
        exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
    }
    for (i, mode) in [(0, 0), (1, 1)] {
        exporter.apply(Change::Applied(Object::Service(service(i, mode))));
        let endpoints = [(Some(0), true, None), (Some(0), true, None), (Some(1), true, None)];
        exporter.apply(Change::Applied(Object::Slice(slice(i, i, &endpoints))));
    }
    exporter.recompute(1.0);
    exporter
}

fn zones(exporter: &Exporter, name: &str) -> usize {
    exporter.services()[&("ns".to_string(), name.to_string())].families[0].zones.len()
}

fn scrape(exporter: &mut Exporter) -> String {
    let mut exposition = Exposition::new(None);
    exposition.refresh(exporter);
    exposition.scrape(exporter, &Health::default(), Format::OpenMetrics)
}

#[test]
fn per_zone_series_only_for_services_that_asked_by_default_and_for_all_when_asked() {
    let mut hinted = exporter(Policy::default());
    let asked = zones(&hinted, "s1");
    assert_eq!(zones(&hinted, "s0"), 0);
    assert!(asked >= 2, "the Service that asked keeps its zones");
    let text = scrape(&mut hinted);
    assert!(!text.contains("hinted_endpoints{namespace=\"ns\",service=\"s0\""), "{text}");
    assert!(text.contains("hinted_endpoints{namespace=\"ns\",service=\"s1\""), "{text}");
    let mut all = exporter(Policy { per_zone: PerZone::All, ..Policy::default() });
    assert_eq!((zones(&all, "s0"), zones(&all, "s1")), (2, asked), "endpoints in zones a and b");
    assert!(scrape(&mut all).contains("hinted_endpoints{namespace=\"ns\",service=\"s0\""));
}

#[test]
fn objects_of_a_filtered_namespace_are_never_held() {
    let ns: BTreeSet<String> = ["ns".to_string()].into();
    let denied = exporter(Policy {
        namespaces: Namespaces { except: ns.clone(), ..Namespaces::default() },
        ..Policy::default()
    });
    assert!(denied.store().services.is_empty() && denied.store().slices.is_empty());
    assert_eq!(denied.store().nodes.len(), 3, "Nodes have no namespace: always held");
    assert!(denied.services().is_empty());
    let other: BTreeSet<String> = ["other".to_string()].into();
    let mut only = Exporter::with_policy(
        Behaviour::default(),
        Policy { namespaces: Namespaces { only: other, ..Namespaces::default() }, ..Policy::default() },
    );
    let listed = vec![Object::Service(service(0, 1)), Object::Service(service(1, 1))];
    assert!(!only.apply(Change::Applied(Object::Service(service(2, 1)))));
    only.apply(Change::Listed(Resource::Services, listed));
    assert!(only.store().services.is_empty());
    let kept = exporter(Policy {
        namespaces: Namespaces { only: ns, ..Namespaces::default() },
        ..Policy::default()
    });
    assert_eq!(kept.services().len(), 2);
}

/// The Auto Service's first reason, unset aside.
fn auto_reason(policy: Policy) -> (Option<String>, bool) {
    let exporter = exporter(policy);
    let family = &exporter.services()[&("ns".to_string(), "s1".to_string())].families[0];
    (family.reason.map(|r| r.to_string()), family.ignored)
}

#[test]
fn a_finding_set_aside_keeps_its_reason_and_is_labelled_ignored() {
    let (reason, ignored) = auto_reason(Policy::default());
    let reason = reason.expect("two endpoints in three zones: Auto gives a reason");
    assert!(!ignored);
    let code = crate::triage::rules::parse_code(&reason).expect("a reason code");
    // By the config file's level.
    let rules = IgnoreRules { levels: [(code, Level::Ignore)].into(), ..IgnoreRules::default() };
    let by_level = auto_reason(Policy { rules, ..Policy::default() });
    assert_eq!(by_level, (Some(reason.clone()), true));
    // By the Service's annotation (`*` and the code by name), read by the state itself.
    for value in ["*", reason.as_str()] {
        let mut exporter = exporter(Policy::default());
        let mut annotated = service(1, 1);
        annotated.annotations.insert(IGNORE_ANNOTATION.to_string(), value.to_string());
        exporter.apply(Change::Applied(Object::Service(annotated)));
        exporter.recompute(2.0);
        let text = scrape(&mut exporter);
        let line = text.lines().find(|l| l.contains("service_verdict{") && l.contains("service=\"s1\""));
        let line = line.expect("the verdict of s1");
        assert!(
            line.contains(&format!("reason=\"{reason}\"")) && line.contains("ignored=\"true\""),
            "{line}"
        );
    }
}

/// The names of the families of a scrape.
fn families(text: &str) -> Vec<String> {
    text.lines().filter_map(|l| l.strip_prefix("# HELP ")?.split(' ').next()).map(str::to_string).collect()
}

#[test]
fn metric_lists_keep_and_drop_whole_families_of_a_scrape() {
    use super::policy::MetricFilter;
    let regexes = |list: &[&str]| list.iter().map(|r| regex::Regex::new(r).unwrap()).collect();
    let mut exporter = exporter(Policy::default());
    let every = families(&scrape(&mut exporter));
    assert!(every.len() > 10, "{every:?}");
    let scrape_with = |exporter: &mut Exporter, filter| {
        let mut exposition = Exposition::new(None).filtered(filter);
        exposition.refresh(exporter);
        exposition.scrape(exporter, &Health::default(), Format::OpenMetrics)
    };
    let mut exporter = self::exporter(Policy::default());
    let allowed = scrape_with(
        &mut exporter,
        MetricFilter::Allow(regexes(&["service_verdict", "^kubectl_topo_ready$"])),
    );
    assert_eq!(families(&allowed), ["kubectl_topo_service_verdict", "kubectl_topo_ready"]);
    assert!(allowed.ends_with("# EOF\n"));
    let mut exporter = self::exporter(Policy::default());
    let denied = scrape_with(&mut exporter, MetricFilter::Deny(regexes(&["hinted_endpoints"])));
    let expected: Vec<String> = every.into_iter().filter(|f| !f.contains("hinted_endpoints")).collect();
    assert_eq!(families(&denied), expected);
}
