//! Load under a trafficDistribution heuristic (`PreferSameZone`, `PreferSameNode`, `PreferClose`;
//! docs/stability.md#load-without-a-safeguard). Upstream's `trafficdist.ReconcileHints` writes a
//! zone (or node) hint on every ready endpoint with no overload check, unlike the Auto path's 20 %
//! threshold, so kube-proxy keeps each zone's (node's) requests on its own endpoints however few
//! they are. From the cross-zone routing (`core::analyze::crosszone`: requests per node from zone
//! CPU or `--traffic`, routed by kube-proxy's view after the next sync), the endpoints above
//! [`LOAD_FACTOR`] times an even share and the ready endpoints that receive nothing. A Service
//! behind a front door (ingress-nginx, Envoy Gateway) gets its requests from that door's Pods:
//! [`front_door_callers`] weighs the callers by their zones instead of zone CPU
//! (docs/stability.md#callers-from-the-front-door).

use std::collections::{BTreeMap, BTreeSet};

use crate::core::zones::node_zone;
use crate::model::{EndpointSlice, FrontDoors, FrontedBy, Node, ReadStatus};
use crate::report::stability::load::{
    CallersFallback, FrontDoorCallers, LOAD_FACTOR, LoadCheck, LoadedEndpoint,
};
use crate::report::{CrossZone, TrafficSource};

/// The callers of a Service behind the front doors `by` names: their Pods per zone (each Pod one
/// caller; its zone its Node's) and, when every Pod's zone is known, those counts as the zone
/// weights of requests. `None` when no front door is before the Service. `pods_read` is the status
/// of the Pods' read; without it, or with no Pod of those doors, or a Pod in an unknown zone, the
/// facts say why and no weights are given (zone CPU stays).
pub fn front_door_callers(
    doors: &FrontDoors,
    pods_read: Option<ReadStatus>,
    by: &FrontedBy,
    nodes: &[Node],
) -> Option<(FrontDoorCallers, Option<BTreeMap<String, f64>>)> {
    if by.routes.is_empty() {
        return None;
    }
    let zone_of: BTreeMap<&str, &str> =
        nodes.iter().filter_map(|n| Some((n.name.as_str(), node_zone(n)?))).collect();
    let mut facts = FrontDoorCallers {
        routes: by.routes.clone(),
        pods_read,
        pods_by_zone: BTreeMap::new(),
        unknown_zone: Vec::new(),
        fallback: None,
    };
    for pod in doors.caller_pods(by) {
        match pod.node.as_deref().and_then(|n| zone_of.get(n)) {
            Some(zone) => *facts.pods_by_zone.entry((*zone).to_string()).or_default() += 1,
            None => facts.unknown_zone.push(format!("{}/{}", pod.pod.namespace, pod.pod.name)),
        }
    }
    facts.fallback = if pods_read != Some(ReadStatus::Read) {
        Some(CallersFallback::PodsNotRead)
    } else if facts.pods_by_zone.is_empty() && facts.unknown_zone.is_empty() {
        Some(CallersFallback::NoPods)
    } else if !facts.unknown_zone.is_empty() {
        Some(CallersFallback::UnknownZone)
    } else {
        None
    };
    let weights = facts
        .fallback
        .is_none()
        .then(|| facts.pods_by_zone.iter().map(|(zone, pods)| (zone.clone(), *pods as f64)).collect());
    Some((facts, weights))
}

/// The load check of one family: `cross` its routing (with per-endpoint loads: `explain`'s detail),
/// `managed` the controller's slices (their ready endpoints are the ones that should get requests),
/// `front_door` the callers behind a front door ([`front_door_callers`]; `cross` routed from their
/// zones when they have no `fallback`).
pub fn load_check(
    cross: &CrossZone,
    managed: &[EndpointSlice],
    front_door: Option<FrontDoorCallers>,
) -> LoadCheck {
    let expected: BTreeMap<&str, f64> =
        cross.endpoints.iter().map(|e| (e.address.as_str(), e.load.expected)).collect();
    let mut overloaded: Vec<LoadedEndpoint> = (cross.endpoints.iter())
        .filter(|e| e.load.expected > LOAD_FACTOR)
        .map(|e| LoadedEndpoint { address: e.address.clone(), zone: e.zone.clone(), load: e.load.expected })
        .collect();
    overloaded.sort_by(|a, b| b.load.total_cmp(&a.load).then_with(|| a.address.cmp(&b.address)));
    let mut ready = 0i64;
    let mut idle: BTreeSet<(String, String)> = BTreeSet::new();
    for endpoint in managed.iter().flat_map(|s| s.endpoints.iter()).filter(|e| e.controller_ready()) {
        ready += 1;
        let Some(address) = endpoint.addresses.first() else { continue };
        if expected.get(address.as_str()).is_none_or(|load| *load <= 0.0) {
            let zone = endpoint.zone.as_deref().unwrap_or_default().to_string();
            idle.insert((zone, address.clone()));
        }
    }
    LoadCheck {
        factor: LOAD_FACTOR,
        traffic_source: match &front_door {
            Some(f) if f.fallback.is_none() => TrafficSource::FrontDoor,
            _ => cross.traffic_source,
        },
        front_door,
        ready_endpoints: ready,
        max_load: cross.max_load.expected,
        overloaded,
        idle: idle.into_iter().map(|(zone, address)| LoadedEndpoint { address, zone, load: 0.0 }).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testkit_td::node;
    use crate::model::{FrontPod, FrontPodOf, ObjectRef};

    fn r(namespace: &str, name: &str) -> ObjectRef {
        ObjectRef { namespace: namespace.into(), name: name.into() }
    }

    fn pod(name: &str, of: FrontPodOf, node: Option<&str>) -> FrontPod {
        FrontPod { pod: r("edge", name), of, node: node.map(str::to_string) }
    }

    /// Nodes n-a1, n-a2 (zone a), n-b (zone b), n-none (no zone).
    fn nodes() -> Vec<Node> {
        vec![node("n-a1", Some("a")), node("n-a2", Some("a")), node("n-b", Some("b")), node("n-none", None)]
    }

    fn nginx() -> FrontedBy {
        FrontedBy { routes: vec!["Ingress shop/web".into()], ingress_nginx: true, gateways: vec![] }
    }

    #[test]
    fn each_front_door_pod_weighs_its_nodes_zone() {
        let eg = r("infra", "eg");
        let doors = FrontDoors {
            pods: vec![
                pod("c-1", FrontPodOf::IngressNginx, Some("n-a1")),
                pod("c-2", FrontPodOf::IngressNginx, Some("n-a2")),
                pod("c-3", FrontPodOf::IngressNginx, Some("n-b")),
                pod("envoy-1", FrontPodOf::EnvoyGateway(eg.clone()), Some("n-b")),
                pod("envoy-other", FrontPodOf::EnvoyGateway(r("infra", "other")), Some("n-a1")),
            ],
            ..FrontDoors::default()
        };
        let read = Some(ReadStatus::Read);
        let (facts, weights) = front_door_callers(&doors, read, &nginx(), &nodes()).expect("a front door");
        assert_eq!(facts.fallback, None);
        assert_eq!(facts.pods_by_zone, BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 1)]));
        assert_eq!(weights, Some(BTreeMap::from([("a".to_string(), 2.0), ("b".to_string(), 1.0)])));
        // Envoy Gateway's proxies count only for the Gateways of the Service's routes.
        let by =
            FrontedBy { routes: vec!["HTTPRoute shop/web".into()], ingress_nginx: false, gateways: vec![eg] };
        let (facts, weights) = front_door_callers(&doors, read, &by, &nodes()).unwrap();
        assert_eq!(facts.pods_by_zone, BTreeMap::from([("b".to_string(), 1)]));
        assert_eq!(weights, Some(BTreeMap::from([("b".to_string(), 1.0)])));
        assert_eq!(front_door_callers(&doors, read, &FrontedBy::default(), &nodes()), None, "no front door");
    }

    #[test]
    fn an_unknown_zone_or_an_unread_list_gives_no_weights_and_says_why() {
        let with = |pods: Vec<FrontPod>, read| {
            let doors = FrontDoors { pods, ..FrontDoors::default() };
            front_door_callers(&doors, read, &nginx(), &nodes()).unwrap()
        };
        let placed = pod("c-1", FrontPodOf::IngressNginx, Some("n-a1"));
        for unknown in [None, Some("n-none"), Some("n-gone")] {
            let (facts, weights) = with(
                vec![placed.clone(), pod("c-2", FrontPodOf::IngressNginx, unknown)],
                Some(ReadStatus::Read),
            );
            assert_eq!((facts.fallback, weights), (Some(CallersFallback::UnknownZone), None), "{unknown:?}");
            assert_eq!(facts.unknown_zone, vec!["edge/c-2".to_string()]);
        }
        for status in
            [None, Some(ReadStatus::Forbidden), Some(ReadStatus::NotInDump), Some(ReadStatus::Absent)]
        {
            let (facts, weights) = with(vec![], status);
            assert_eq!((facts.fallback, weights), (Some(CallersFallback::PodsNotRead), None), "{status:?}");
            assert_eq!(facts.pods_read, status);
        }
        let other = pod("envoy", FrontPodOf::EnvoyGateway(r("infra", "eg")), Some("n-a1"));
        let (facts, weights) = with(vec![other], Some(ReadStatus::Read));
        assert_eq!((facts.fallback, weights), (Some(CallersFallback::NoPods), None), "not this door's Pods");
    }
}
