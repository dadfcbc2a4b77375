//! What a dump lacks is marked once, and no verdict is stated with more certainty than what is
//! left supports: a property test over clusters with a whole kind removed.

use super::*;
use topo_engine::model::{EndpointSlice, Node, Service};

fn service(selector: bool, kind: &str) -> Service {
    Service {
        namespace: "ns".into(),
        name: "web".into(),
        labels: Default::default(),
        annotations: Default::default(),
        has_selector: selector,
        selector: Default::default(),
        service_type: kind.to_string(),
        cluster_ip: None,
        ip_families: vec![],
        traffic_distribution: None,
        internal_traffic_policy: None,
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        line: Default::default(),
        ports: vec![],
    }
}

fn node() -> Node {
    Node {
        name: "n".into(),
        labels: Default::default(),
        allocatable_cpu: None,
        ready: None,
        kubelet_version: None,
    }
}

#[test]
fn a_dump_without_nodes_or_slices_says_so_once() {
    let mut snapshot = Snapshot { services: vec![service(true, "ClusterIP")], ..Snapshot::default() };
    let notes = mark_dump(&mut snapshot);
    assert_eq!(notes.len(), 2);
    assert!(snapshot.info.nodes_unavailable && snapshot.info.slices_unavailable);
    assert!(notes.iter().all(|n| n.contains(partial::DUMP_COMMAND)), "{notes:?}");
    assert_eq!(snapshot.info.partial, notes);
    assert!(mark_dump(&mut snapshot).is_empty(), "a note already recorded is not repeated");
    assert_eq!(snapshot.info.partial.len(), 2);
}

#[test]
fn what_is_there_or_not_needed_is_not_marked() {
    for services in [vec![], vec![service(false, "ClusterIP")], vec![service(true, "ExternalName")]] {
        let mut snapshot = Snapshot { nodes: vec![node()], services, ..Snapshot::default() };
        assert!(mark_dump(&mut snapshot).is_empty());
        assert!(!snapshot.info.nodes_unavailable && !snapshot.info.slices_unavailable);
    }
    let slice = EndpointSlice {
        namespace: "ns".into(),
        name: "web-1".into(),
        service_name: None,
        managed_by: None,
        address_type: "IPv4".into(),
        ports: vec![],
        endpoints: vec![],
    };
    let mut snapshot = Snapshot {
        nodes: vec![node()],
        services: vec![service(true, "ClusterIP")],
        slices: vec![slice],
        ..Snapshot::default()
    };
    assert!(mark_dump(&mut snapshot).is_empty());
}

mod property {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use topo_engine::core::analyze;
    use topo_engine::model::{Behaviour, Service, Snapshot};
    use topo_engine::report::Verdict;

    use super::super::mark_dump;

    use crate::fixtures::{node, service, slice};

    fn cluster() -> impl Strategy<Value = Snapshot> {
        let zone = proptest::option::weighted(0.9, 0..3usize);
        let nodes = proptest::collection::vec((zone.clone(), 1..5u8, proptest::bool::weighted(0.9)), 1..7);
        let services = proptest::collection::vec(0..6u8, 1..5);
        let endpoint = (zone.clone(), proptest::bool::weighted(0.85), zone);
        let slices = proptest::collection::vec((0..5usize, proptest::collection::vec(endpoint, 0..7)), 1..6);
        (nodes, services, slices).prop_map(|(nodes, services, slices)| Snapshot {
            nodes: nodes
                .into_iter()
                .enumerate()
                .map(|(i, (z, cpu, ready))| node(i, z, Some(cpu), ready))
                .collect(),
            services: services.into_iter().enumerate().map(|(i, mode)| service(i, mode)).collect(),
            slices: slices.into_iter().enumerate().map(|(i, (owner, eps))| slice(i, owner, &eps)).collect(),
            ..Snapshot::default()
        })
    }

    /// (namespace/name, family) → verdict, of `check` on the snapshot as a dump read gives it.
    fn verdicts(mut snapshot: Snapshot) -> BTreeMap<(String, String), Verdict> {
        mark_dump(&mut snapshot);
        let services: Vec<&Service> = snapshot.services.iter().collect();
        let report = analyze::check(&snapshot, &services, Behaviour::new(36));
        report
            .services
            .iter()
            .flat_map(|row| {
                row.families.iter().map(|f| ((row.service.name.clone(), f.address_type.clone()), f.verdict))
            })
            .collect()
    }

    proptest! {
        #[test]
        fn no_verdict_is_more_certain_than_what_is_left(
            cluster in cluster(),
            removed in 0..3u8,
            kept_services in proptest::collection::vec(any::<bool>(), 5),
        ) {
            let whole = verdicts(cluster.clone());
            let mut part = cluster;
            match removed {
                0 => part.nodes.clear(),
                1 => part.slices.clear(),
                _ => {
                    let mut keep = kept_services.into_iter().cycle();
                    part.services.retain(|_| keep.next().unwrap_or(true));
                }
            }
            for (family, verdict) in verdicts(part) {
                let known = whole.get(&family);
                prop_assert!(
                    verdict == Verdict::Unknown || known == Some(&verdict),
                    "{:?} with part {} removed: {:?}, from the whole cluster {:?}", family, removed, verdict, known
                );
            }
        }
    }
}
