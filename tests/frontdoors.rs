//! The front doors before a Service (docs/data-plane.md#front-doors): Envoy Gateway through the
//! routes of its Gateways, Istio ambient's ztunnel, and a front door that could not be seen. On
//! dumps (YAML and JSON), through `dump -f` and `dump --redact -f` and back.

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze;
use topo_engine::model::{ReadStatus, Snapshot};
use topo_engine::report::ServiceReport;
use topo_engine::report::dataplane::PathKind;
use topo_engine::report::reason::ReasonCode as C;

use crate::support::{dump_json, path, read, temp_file};

const EG: &str = "gateway.envoyproxy.io/gatewayclass-controller";

/// w03 (four zones, hinted, `topology-mode: Auto`) and these extra YAML documents.
fn dump(extra: &str) -> String {
    format!("{}{extra}", read(&path("tests/fixtures/w03-four-zones-hinted.yaml")))
}

/// A GatewayClass of `controller`, Gateway `infra/eg` of it, and an HTTPRoute of that Gateway in
/// the Service's namespace naming `backend`.
fn gateway(controller: &str, service: &str, backend: &str) -> String {
    let (ns, _) = service.split_once('/').unwrap();
    format!(
        "\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: eg\nspec:\n  controllerName: {controller}\n\
         ---\napiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: eg\n  namespace: infra\nspec:\n  gatewayClassName: eg\n\
         ---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\n  namespace: {ns}\nspec:\n  parentRefs:\n  - name: eg\n    namespace: infra\n  rules:\n  - backendRefs:\n    - name: {backend}\n      port: 80\n"
    )
}

fn policy(ns: &str) -> String {
    format!(
        "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata:\n  name: zonal\n  namespace: {ns}\nspec:\n  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    name: web\n  loadBalancer:\n    type: RoundRobin\n    zoneAware:\n      preferLocal:\n        minEndpointsThreshold: 3\n"
    )
}

fn snapshot(text: &str) -> Snapshot {
    parse_dump(text, "test").unwrap().snapshot
}

fn explain(s: &Snapshot) -> ServiceReport {
    let chosen = topo_engine::core::version::choose(None, s).unwrap();
    analyze::explain(s, &s.services[0], chosen.behaviour)
}

fn service_of(s: &Snapshot) -> String {
    format!("{}/{}", s.services[0].namespace, s.services[0].name)
}

fn envoy(r: &ServiceReport) -> Option<(C, Option<String>)> {
    let p = r.data_plane.iter().find(|p| p.path == PathKind::EnvoyGateway)?;
    Some((p.verdict, p.facts.key.clone()))
}

#[test]
fn envoy_gateway_is_a_path_only_through_a_gateway_it_controls() {
    let plain = snapshot(&dump(""));
    let service = service_of(&plain);
    let name = service.split_once('/').unwrap().1;
    let routed = snapshot(&dump(&gateway(EG, &service, name)));
    let mode = Some("service.kubernetes.io/topology-mode".to_string());
    assert_eq!(envoy(&explain(&routed)), Some((C::FrontDoorPrefersZone, mode)));
    assert_eq!(
        envoy(&explain(&snapshot(&dump(&gateway("istio.io/gateway-controller", &service, name))))),
        None
    );
    assert_eq!(envoy(&explain(&snapshot(&dump(&gateway(EG, &service, "other"))))), None, "another Service");
    let with_policy =
        snapshot(&dump(&(gateway(EG, &service, name) + &policy(service.split_once('/').unwrap().0))));
    let policy_key = Some("BackendTrafficPolicy".to_string());
    assert_eq!(envoy(&explain(&with_policy)), Some((C::FrontDoorPrefersZone, policy_key)));
}

#[test]
fn a_dump_without_the_front_doors_says_they_are_unknown_and_notes_nothing() {
    let s = snapshot(&dump(""));
    let r = explain(&s);
    let unknown: Vec<_> = r.data_plane.iter().filter(|p| p.path == PathKind::FrontDoorUnknown).collect();
    assert_eq!(unknown.len(), 4, "the gateway, ztunnel, the Ingresses and Linkerd: {:?}", r.data_plane);
    assert!(
        unknown.iter().all(|p| p.verdict == C::FrontDoorUnknown && p.read == Some(ReadStatus::NotInDump))
    );
    assert!(!r.notes.iter().any(|n| n.code == C::FrontDoorUnknown), "{:?}", r.notes);
    // A dump holding one Gateway API kind holds the others it has: no unknown gateway row.
    let service = service_of(&s);
    let name = service.split_once('/').unwrap().1;
    let routed = explain(&snapshot(&dump(&gateway(EG, &service, name))));
    let rows = routed.data_plane.iter().filter(|p| p.path == PathKind::FrontDoorUnknown).count();
    assert_eq!(rows, 3, "ztunnel, the Ingresses and Linkerd only: {:?}", routed.data_plane);
}

/// `dump -f` and `dump --redact -f` write the front doors back, as JSON, and the path holds.
#[test]
fn dump_and_redact_keep_the_envoy_gateway_path() {
    let plain = snapshot(&dump(""));
    let service = service_of(&plain);
    let (ns, name) = service.split_once('/').unwrap();
    let text = dump(&(gateway(EG, &service, name) + &policy(ns)));
    let input = temp_file(&text);
    for extra in [&[][..], &["--redact"][..]] {
        let written = dump_json(input.path(), extra);
        assert!(!extra.is_empty() || written.contains("\"HTTPRoute\""), "{written}");
        if !extra.is_empty() {
            assert!(
                !written.contains("\"infra\"") && !written.contains("\"zonal\""),
                "names pseudonymised: {written}"
            );
        }
        let back = snapshot(&written);
        let policy_key = Some("BackendTrafficPolicy".to_string());
        assert_eq!(envoy(&explain(&back)), Some((C::FrontDoorPrefersZone, policy_key)), "{extra:?}");
    }
}
