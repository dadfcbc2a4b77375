//! The incremental state against a from-scratch analysis: after any sequence of watch events
//! (adds, modifications, deletions, relists), recomputing only what the events affected gives
//! the summaries that analysing every object again gives, and the kept text of the scrapes (only
//! changed Services encoded again) is what encoding every Service from scratch gives.

use std::collections::BTreeMap;

use proptest::prelude::*;
use topo_engine::model::{ANNOTATION_TOPOLOGY_MODE, Behaviour, Service};
use topo_engine::report::Verdict;

use super::exposition::Exposition;
use super::format::{Format, prometheus_text};
use super::metrics::{Health, openmetrics};
use super::policy::{Namespaces, PerZone, Policy};
use super::state::{Exporter, from_scratch};
use super::store::{Change, Key, Object, Resource, Store, key_of, resource_of};
use crate::fixtures::{EndpointSpec, node, service, slice};

fn object() -> impl Strategy<Value = Object> {
    let zone = proptest::option::of(0..3usize);
    prop_oneof![
        (0..4usize, zone.clone(), proptest::option::weighted(0.9, 1..5u8), proptest::bool::weighted(0.85))
            .prop_map(|(i, z, cpu, ready)| Object::Node(node(i, z, cpu, ready))),
        (0..3usize, 0..3u8).prop_map(|(i, mode)| Object::Service(service(i, mode))),
        (
            0..5usize,
            0..3usize,
            proptest::collection::vec((zone.clone(), proptest::bool::weighted(0.85), zone), 0..6)
        )
            .prop_map(|(i, owner, eps)| Object::Slice(slice(i, owner, &eps))),
    ]
}

/// Per-zone series for some or all Services, every namespace or none of the fixtures' (`ns`), and
/// a few reason codes set aside by the config file.
fn policy() -> impl Strategy<Value = Policy> {
    use strum::VariantArray;
    use topo_engine::report::reason::ReasonCode;
    let per_zone = prop_oneof![Just(PerZone::Hinted), Just(PerZone::All)];
    let ns = || std::iter::once("ns".to_string()).collect();
    let namespaces = prop_oneof![
        4 => Just(Namespaces::default()),
        1 => Just(Namespaces { only: ns(), ..Namespaces::default() }),
        1 => Just(Namespaces { except: ns(), ..Namespaces::default() }),
    ];
    let ignored = proptest::sample::subsequence(ReasonCode::VARIANTS.to_vec(), 0..4);
    (per_zone, namespaces, ignored).prop_map(|(per_zone, namespaces, ignored)| {
        let levels = ignored.into_iter().map(|c| (c, crate::triage::Level::Ignore)).collect();
        let rules = crate::triage::IgnoreRules { levels, ..Default::default() };
        Policy { per_zone, namespaces, rules }
    })
}

fn resource() -> impl Strategy<Value = Resource> {
    prop_oneof![Just(Resource::Nodes), Just(Resource::Services), Just(Resource::EndpointSlices)]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        6 => object().prop_map(Change::Applied),
        2 => (resource(), 0..5usize).prop_map(|(r, i)| {
            let key = match r {
                Resource::Nodes => (String::new(), format!("n{i}")),
                Resource::Services => ("ns".to_string(), format!("s{i}")),
                Resource::EndpointSlices => ("ns".to_string(), format!("sl{i}")),
            };
            Change::Deleted(r, key)
        }),
        1 => (resource(), proptest::collection::vec(object(), 0..6))
            .prop_map(|(r, objects)| Change::Listed(r, objects.into_iter().filter(|o| resource_of(o) == r).collect())),
    ]
}

/// The objects as a plain map, changed by the obvious rules (what the store must hold).
fn model_apply(model: &mut BTreeMap<(Resource, Key), Object>, change: &Change) {
    match change {
        Change::Applied(o) => {
            model.insert((resource_of(o), key_of(o)), o.clone());
        }
        Change::Deleted(r, k) => {
            model.remove(&(*r, k.clone()));
        }
        Change::Listed(r, objects) => {
            model.retain(|(resource, _), _| resource != r);
            for o in objects {
                model.insert((*r, key_of(o)), o.clone());
            }
        }
    }
}

fn store_of(model: &BTreeMap<(Resource, Key), Object>) -> Store {
    let mut store = Store::default();
    for object in model.values() {
        store.apply(Change::Applied(object.clone()));
    }
    store
}

/// A scrape with the series of each family sorted: `prometheus-client` writes a family's series
/// in its hash map's order, which no consumer may rely on; everything else must be equal.
fn normalized(text: &str) -> Vec<(String, Vec<String>)> {
    let mut families: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("# HELP ") || line == "# EOF" || families.is_empty() {
            families.push((String::new(), Vec::new()));
        }
        let Some((header, samples)) = families.last_mut() else { continue };
        if line.starts_with('#') {
            header.push_str(line);
            header.push('\n');
        } else {
            samples.push(line.to_string());
        }
    }
    families.iter_mut().for_each(|(_, samples)| samples.sort());
    families
}

/// The kept text equals a from-scratch encoding of the same state, in both formats.
fn assert_same_scrape(exposition: &Exposition, exporter: &Exporter, cluster: Option<&str>) {
    let health = Health::default();
    let scratch = openmetrics(exporter, &health, cluster);
    let kept = exposition.scrape(exporter, &health, Format::OpenMetrics);
    assert_eq!(normalized(&kept), normalized(&scratch));
    let kept = exposition.scrape(exporter, &health, Format::PrometheusText);
    assert_eq!(normalized(&kept), normalized(&prometheus_text(&scratch)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn incremental_state_equals_a_from_scratch_analysis(
        steps in proptest::collection::vec((change(), proptest::bool::weighted(0.4)), 1..25),
        cluster in proptest::option::of(Just("eu-1")),
        policy in policy(),
    ) {
        let behaviour = Behaviour::default();
        let mut exporter = Exporter::with_policy(behaviour, policy.clone());
        let mut exposition = Exposition::new(cluster);
        let mut model = BTreeMap::new();
        for (at, (change, recompute_now)) in steps.into_iter().enumerate() {
            model_apply(&mut model, &change);
            exporter.apply(change);
            if recompute_now {
                // A new time each step: a verdict that changes gets a new timestamp.
                exporter.recompute(at as f64);
                exposition.refresh(&mut exporter);
                // What the recompute lent the engine is back where it was.
                if policy.namespaces == Namespaces::default() {
                    prop_assert_eq!(exporter.store(), &store_of(&model));
                }
                let (services, zones) = from_scratch(&store_of(&model), &Default::default(), behaviour, &policy);
                prop_assert_eq!(exporter.services(), &services);
                prop_assert_eq!(exporter.zones(), &zones);
                assert_same_scrape(&exposition, &exporter, cluster);
            }
        }
        exporter.recompute(100.0);
        exposition.refresh(&mut exporter);
        prop_assert!(!exporter.is_dirty());
        let (services, zones) = from_scratch(&store_of(&model), &Default::default(), behaviour, &policy);
        prop_assert_eq!(exporter.services(), &services);
        prop_assert_eq!(exporter.zones(), &zones);
        assert_same_scrape(&exposition, &exporter, cluster);
    }
}

#[test]
fn a_change_encodes_its_service_again_and_a_heartbeat_nothing() {
    let mut exporter = Exporter::new(Behaviour::default());
    let mut exposition = Exposition::new(None);
    for i in 0..3 {
        exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
        exporter.apply(Change::Applied(Object::Service(service(i, 1))));
        exporter.apply(Change::Applied(Object::Slice(slice(i, i, &[(Some(i), true, Some(i))]))));
    }
    exporter.recompute(1.0);
    assert_eq!(exposition.refresh(&mut exporter), 3);
    exporter.apply(Change::Applied(Object::Slice(slice(1, 1, &[(Some(1), true, None)]))));
    exporter.recompute(2.0);
    assert_eq!(exposition.refresh(&mut exporter), 1);
    // A Node change the engine sees recomputes every Service; none of their metrics moves here.
    exporter.apply(Change::Applied(Object::Node(node(3, None, Some(4), false))));
    assert_eq!(exporter.recompute(3.0), 3);
    assert_eq!(exposition.refresh(&mut exporter), 0);
    exporter.apply(Change::Deleted(Resource::Services, ("ns".into(), "s0".into())));
    exporter.recompute(4.0);
    assert_eq!(exposition.refresh(&mut exporter), 0);
    let text = exposition.scrape(&exporter, &Health::default(), Format::OpenMetrics);
    assert!(!text.contains("service=\"s0\"") && text.contains("service=\"s1\""), "{text}");
}

#[test]
fn a_slice_change_recomputes_its_service_only_and_a_heartbeat_nothing() {
    let mut exporter = Exporter::new(Behaviour::default());
    for i in 0..3 {
        exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
        exporter.apply(Change::Applied(Object::Service(service(i, 1))));
        exporter.apply(Change::Applied(Object::Slice(slice(i, i, &[(Some(0), true, None)]))));
    }
    assert_eq!(exporter.recompute(1.0), 3);
    exporter.apply(Change::Applied(Object::Slice(slice(1, 1, &[(Some(1), true, None)]))));
    assert_eq!(exporter.recompute(2.0), 1);
    let mut heartbeat = node(0, Some(0), Some(4), true);
    heartbeat.kubelet_version = Some("v1.36.0".into());
    exporter.apply(Change::Applied(Object::Node(heartbeat)));
    assert!(!exporter.is_dirty());
    exporter.apply(Change::Applied(Object::Node(node(0, Some(0), Some(8), true))));
    assert_eq!(exporter.recompute(3.0), 3);
}

#[test]
fn the_verdict_time_moves_only_when_the_verdict_changes() {
    let mut exporter = Exporter::new(Behaviour::default());
    for i in 0..3 {
        exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
    }
    exporter.apply(Change::Applied(Object::Service(service(0, 1))));
    let three: Vec<EndpointSpec> = (0..3).map(|z| (Some(z), true, Some(z))).collect();
    exporter.apply(Change::Applied(Object::Slice(slice(0, 0, &three))));
    exporter.recompute(10.0);
    let key = ("ns".to_string(), "s0".to_string());
    assert_eq!(exporter.services()[&key].families[0].verdict, Verdict::Active);
    exporter.apply(Change::Applied(Object::Service(Service {
        labels: [("team".to_string(), "a".to_string())].into(),
        ..service(0, 1)
    })));
    exporter.recompute(20.0);
    assert_eq!(exporter.verdict_since(&key, "IPv4"), Some(10.0));
    assert_eq!(exporter.verdict_transitions(&key, "IPv4"), 0, "first seen, then unchanged");
    let mut four = three.clone();
    four.push((Some(0), true, None));
    exporter.apply(Change::Applied(Object::Slice(slice(0, 0, &four))));
    exporter.recompute(30.0);
    assert_ne!(exporter.services()[&key].families[0].verdict, Verdict::Active);
    assert_eq!(exporter.verdict_since(&key, "IPv4"), Some(30.0));
    assert_eq!(exporter.verdict_transitions(&key, "IPv4"), 1);
    exporter.apply(Change::Applied(Object::Slice(slice(0, 0, &three))));
    exporter.recompute(40.0);
    assert_eq!(exporter.verdict_transitions(&key, "IPv4"), 2, "and back");
    let text = openmetrics(&exporter, &Health::default(), None);
    let counted =
        |l: &&str| l.starts_with("kubectl_topo_verdict_transitions_total{") && l.contains("service=\"s0\"");
    assert_eq!(text.lines().find(counted).and_then(|l| l.rsplit(' ').next()), Some("2"), "{text}");
}

#[test]
fn zones_without_endpoints_or_hints_have_no_series() {
    let mut exporter = Exporter::new(Behaviour::default());
    for i in 0..3 {
        exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
    }
    exporter.apply(Change::Applied(Object::Service(service(0, 1))));
    // Two ready endpoints in zone a, none hinted: zones b and c have neither.
    exporter.apply(Change::Applied(Object::Slice(slice(
        0,
        0,
        &[(Some(0), true, None), (Some(0), true, None)],
    ))));
    exporter.recompute(1.0);
    let key = ("ns".to_string(), "s0".to_string());
    let zones: Vec<&str> =
        exporter.services()[&key].families[0].zones.iter().map(|z| z.zone.as_str()).collect();
    assert_eq!(zones, ["a"]);
    // A hint to zone b gives b its series.
    exporter.apply(Change::Applied(Object::Slice(slice(
        0,
        0,
        &[(Some(0), true, Some(1)), (Some(0), true, None)],
    ))));
    exporter.recompute(2.0);
    let zones: Vec<&str> =
        exporter.services()[&key].families[0].zones.iter().map(|z| z.zone.as_str()).collect();
    assert_eq!(zones, ["a", "b"]);
}

/// A Service as the API serves it, with an annotation the engine does not read.
fn api_service(i: usize, noise: usize) -> k8s_openapi::api::core::v1::Service {
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": format!("s{i}"), "namespace": "ns", "annotations": {
            ANNOTATION_TOPOLOGY_MODE: "Auto", "deployment.kubernetes.io/revision": noise.to_string()}},
        "spec": {"clusterIP": format!("10.0.0.{i}"), "selector": {"app": "x"}, "ipFamilies": ["IPv4"]}
    }))
    .unwrap()
}

/// Issue 37 item 4, with the watch input fed in-process on a simulated clock: 500 updates per
/// second that change nothing the engine reads (one Service's ignored annotation) do not
/// postpone the recompute of a change that matters; nor do 500 relevant updates per second of
/// another Service postpone it past the maximum wait.
#[test]
fn a_verdict_change_is_seen_within_the_maximum_wait_under_churn() {
    use super::debounce::{Debounce, MAX_WAIT};
    use crate::source::convert::service_from;
    use std::time::{Duration, Instant};
    for relevant_noise in [false, true] {
        let mut exporter = Exporter::new(Behaviour::default());
        for i in 0..3 {
            exporter.apply(Change::Applied(Object::Node(node(i, Some(i), Some(4), true))));
        }
        for i in 0..2 {
            exporter.apply(Change::Applied(Object::Service(service_from(&api_service(i, 0)))));
        }
        let three: Vec<EndpointSpec> = (0..3).map(|z| (Some(z), true, Some(z))).collect();
        exporter.apply(Change::Applied(Object::Slice(slice(0, 0, &three))));
        exporter.recompute(0.0);
        let key = ("ns".to_string(), "s0".to_string());
        assert_eq!(exporter.services()[&key].families[0].verdict, Verdict::Active);
        let (t0, mut debounce, mut changed_at, mut seen_at) =
            (Instant::now(), Debounce::default(), None, None);
        // 10 s of an update every 2 ms; at 3 s, s0 loses its hints.
        for tick in 0..5000u64 {
            let now = t0 + Duration::from_millis(2 * tick);
            if debounce.due().is_some_and(|due| due <= now) {
                debounce.done();
                exporter.recompute(now.duration_since(t0).as_secs_f64());
                if seen_at.is_none() && exporter.services()[&key].families[0].verdict != Verdict::Active {
                    seen_at = Some(now);
                }
            }
            let change = if tick == 1500 {
                changed_at = Some(now);
                Change::Applied(Object::Slice(slice(0, 0, &[(Some(0), true, None)])))
            } else if relevant_noise {
                let labels = [("rev".to_string(), tick.to_string())].into();
                Change::Applied(Object::Service(Service { labels, ..service_from(&api_service(1, 0)) }))
            } else {
                Change::Applied(Object::Service(service_from(&api_service(1, tick as usize))))
            };
            if exporter.apply(change) {
                debounce.touched(now);
            }
        }
        let waited = seen_at.expect("the verdict change is seen") - changed_at.unwrap();
        assert!(waited <= MAX_WAIT + Duration::from_millis(2), "relevant noise {relevant_noise}: {waited:?}");
        if !relevant_noise {
            assert!(waited <= super::debounce::QUIET + Duration::from_millis(2), "{waited:?}");
        }
    }
}
