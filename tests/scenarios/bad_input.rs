//! Bad or unusual input that belongs in a report (a reason, a verdict), never an error or a panic.
//! Each case is a small inline dump.

use topo_engine::report::mode::Mode;
use topo_engine::report::reason::ReasonCode as C;
use topo_engine::report::{ControllerAction, Verdict};

use super::*;
use crate::support::dump::{
    EndpointSpec, NodeSpec, ServiceSpec, SliceSpec, auto_service, ep, list, node, slice,
};

fn two_zones() -> Vec<NodeSpec> {
    vec![node("node-a", "a", "4"), node("node-b", "b", "4")]
}

/// a1, a2 in a and b1, b2 in b, hinted own zone when `hinted`.
fn four_endpoints(hinted: bool) -> Vec<EndpointSpec> {
    let eps = [
        ep("10.0.1.11", "a", "node-a"),
        ep("10.0.1.12", "a", "node-a"),
        ep("10.0.2.11", "b", "node-b"),
        ep("10.0.2.12", "b", "node-b"),
    ];
    eps.into_iter().map(|e| if hinted { e.clone().hinted(&[e.zone.unwrap()]) } else { e }).collect()
}

fn one_service(service: ServiceSpec, endpoints: Vec<EndpointSpec>) -> String {
    let name = service.name;
    list(&two_zones(), &[service], &[slice("s1", name, endpoints)])
}

#[test]
fn endpoint_without_addresses_is_skipped_by_kube_proxy() {
    let mut endpoints = four_endpoints(true);
    endpoints.push(EndpointSpec { addresses: vec![], ready: true, ..ep("x", "a", "node-a") });
    let r = explain(&one_service(auto_service("svc"), endpoints), "svc");
    let f = family(&r);
    assert_eq!(f.endpoints.len(), 5, "the controller side still lists it");
    for view in &f.proxy {
        assert!(view.endpoints.iter().all(|e| !e.is_empty()), "{view:?}");
    }
    assert_eq!(proxy_on(f, "node-b").1, strings(&["10.0.2.11", "10.0.2.12"]));
}

#[test]
fn more_than_eight_zone_hints_are_reported_not_fatal() {
    let many = ["a", "b", "z1", "z2", "z3", "z4", "z5", "z6", "z7"];
    let mut endpoints = four_endpoints(true);
    endpoints[0] = endpoints[0].clone().hinted(&many);
    let r = explain(&one_service(auto_service("svc"), endpoints), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsInvalid]));
    assert_eq!(endpoint(f, "10.0.1.11").actual_zones.as_ref().map(Vec::len), Some(9));
    assert_eq!(endpoint(f, "10.0.1.11").expected_zones, zones_of(&["a"]));
}

#[test]
fn service_without_selector_is_unmanaged() {
    let svc = ServiceSpec { selector: false, ..auto_service("svc") };
    let r = explain(&one_service(svc, four_endpoints(false)), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Unmanaged, vec![C::NoSelector]));
}

#[test]
fn external_name_service_is_unmanaged() {
    let svc = ServiceSpec { service_type: "ExternalName", ..auto_service("svc") };
    let r = explain(&list(&two_zones(), &[svc], &[]), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Unmanaged, vec![C::ExternalName]));
}

#[test]
fn node_with_zero_cpu_is_named() {
    let mut nodes = two_zones();
    nodes.push(node("node-zero", "b", "0"));
    let text = list(&nodes, &[auto_service("svc")], &[slice("s1", "svc", four_endpoints(false))]);
    let f = &explain(&text, "svc").families[0];
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::NodeMissingCPU]));
    assert_eq!(f.reasons[0].facts.nodes, strings(&["node-zero"]));
}

#[test]
fn ready_worker_without_zone_blocks_every_auto_service() {
    let mut nodes = two_zones();
    nodes.push(NodeSpec { zone: None, ..node("node-nozone", "-", "4") });
    let services = [auto_service("svc"), auto_service("svc2")];
    let slices = [slice("s1", "svc", four_endpoints(false)), slice("s2", "svc2", four_endpoints(false))];
    let snapshot = snapshot(&list(&nodes, &services, &slices));
    let refs: Vec<_> = snapshot.services.iter().collect();
    let report = analyze::check(&snapshot, &refs, behaviour("1.36"));
    assert_eq!(report.services.len(), 2);
    for row in &report.services {
        let f = &row.families[0];
        assert_eq!(f.verdict, Verdict::Blocked, "{}", row.service.name);
        assert_eq!(f.reasons[0].code, C::NodeMissingZone);
        assert_eq!(f.reasons[0].facts.nodes, strings(&["node-nozone"]));
    }
}

#[test]
fn hint_for_an_unknown_zone_is_invalid_and_rewritten() {
    let mut endpoints = four_endpoints(true);
    endpoints[3] = endpoints[3].clone().hinted(&["nowhere"]);
    let r = explain(&one_service(auto_service("svc"), endpoints), "svc");
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsInvalid]));
    assert_eq!((f.action, f.rewritten_slices.clone()), (ControllerAction::Write, strings(&["s1"])));
    assert_eq!(endpoint(f, "10.0.2.12").expected_zones, zones_of(&["b"]));
}

#[test]
fn hints_while_mode_none_are_unexpected() {
    let svc = ServiceSpec { annotations: vec![], ..auto_service("svc") };
    let r = explain(&one_service(svc, four_endpoints(true)), "svc");
    assert_eq!(r.mode, Mode::None);
    let f = family(&r);
    assert_eq!((f.verdict, codes(f)[0]), (Verdict::Drift, C::HintsUnexpected));
    assert_eq!(f.action, ControllerAction::Remove);
    assert!(f.endpoints.iter().all(|e| e.expected_zones.is_none()));
}

#[test]
fn upper_case_auto_is_ignored() {
    let svc = ServiceSpec {
        annotations: vec![("service.kubernetes.io/topology-mode", "AUTO")],
        ..auto_service("svc")
    };
    let r = explain(&one_service(svc, four_endpoints(false)), "svc");
    assert_eq!(r.mode, Mode::None);
    let f = family(&r);
    assert_eq!(f.verdict, Verdict::Blocked);
    assert!(codes(f).contains(&C::AnnotationValueIgnored), "{:?}", codes(f));
    let ignored = f.reasons.iter().find(|r| r.code == C::AnnotationValueIgnored).unwrap();
    assert_eq!(ignored.facts.value.as_deref(), Some("AUTO"));
}

#[test]
fn deprecated_annotation_wins_by_presence() {
    let annotations = vec![
        ("service.kubernetes.io/topology-aware-hints", "Disabled"),
        ("service.kubernetes.io/topology-mode", "Auto"),
    ];
    let svc = ServiceSpec { annotations, ..auto_service("svc") };
    let r = explain(&one_service(svc, four_endpoints(false)), "svc");
    assert_eq!(r.mode, Mode::None);
    let notes: Vec<C> = r.notes.iter().map(|n| n.code).collect();
    assert!(notes.contains(&C::DeprecatedAnnotationWins), "{notes:?}");
    assert_eq!(family(&r).verdict, Verdict::NotEnabled);
}

#[test]
fn dual_stack_families_are_analysed_independently() {
    let svc = ServiceSpec { ip_families: vec!["IPv4", "IPv6"], ..auto_service("svc") };
    let v6 = vec![ep("fd00:a::11", "a", "node-a").hinted(&["a"])];
    let slices = [
        slice("s4", "svc", four_endpoints(true)),
        SliceSpec { address_type: "IPv6", ..slice("s6", "svc", v6) },
    ];
    let r = explain(&list(&two_zones(), &[svc], &slices), "svc");
    let types: Vec<&str> = r.families.iter().map(|f| f.address_type.as_str()).collect();
    assert_eq!(types, ["IPv4", "IPv6"]);
    let (v4, v6) = (&r.families[0], &r.families[1]);
    assert_eq!((v4.verdict, v4.action), (Verdict::Active, ControllerAction::Keep));
    assert_eq!(v4.endpoints.len(), 4);
    // One IPv6 endpoint for two zones: that family alone loses its hints.
    assert_eq!((v6.verdict, codes(v6)), (Verdict::Drift, vec![C::HintsUnexpected, C::InsufficientEndpoints]));
    assert!(v6.event.as_ref().unwrap().message.ends_with("(1 endpoints, 2 zones), addressType: IPv6"));
    assert_eq!(v6.endpoints.len(), 1);
}
