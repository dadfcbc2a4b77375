//! Hints as the controller would write them, computed by our own engine, then some drift.

use std::collections::BTreeMap;

use topo_engine::core::analyze::{self, Cluster};
use topo_engine::model::{
    self, Behaviour, CONTROLLER_NAME, CpuAmount, Endpoint, EndpointSlice, Hints, LABEL_ZONE, Snapshot,
};

use crate::plan::{ClusterPlan, MAX_PER_SLICE, Mode, NODE_TYPES, Rng};

/// Hints of every endpoint, by (service index, slice index, endpoint index in the slice).
pub type HintTable = BTreeMap<(usize, usize, usize), Hints>;

/// What the generator did to the controller's hints.
#[derive(Debug, Default)]
pub struct Drift {
    /// Services whose hints were all removed (kubernetes/kubernetes#123401).
    pub stripped: usize,
    /// Services with one endpoint hinted for the wrong zone.
    pub wrong_zone: usize,
}

pub fn ip(a: [u8; 4]) -> String {
    format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
}

pub fn slice_name(plan: &ClusterPlan, s: usize, k: usize) -> String {
    format!("{}-{}", plan.services[s].name, plan.services[s].slice_suffixes[k])
}

/// The plan as the engine's Snapshot, without hints.
fn snapshot(plan: &ClusterPlan) -> Snapshot {
    let nodes = plan
        .nodes
        .iter()
        .map(|n| {
            let mut labels = BTreeMap::from([(LABEL_ZONE.to_string(), n.zone.clone())]);
            if n.control_plane {
                labels.insert("node-role.kubernetes.io/control-plane".into(), String::new());
            }
            model::Node {
                name: n.name.clone(),
                labels: labels.into(),
                allocatable_cpu: Some(CpuAmount::from_millis(NODE_TYPES[n.node_type].1)),
                ready: Some(if n.ready { "True" } else { "False" }.to_string()),
                kubelet_version: None,
            }
        })
        .collect();
    let services = plan.services.iter().map(service_model).collect();
    let mut slices = Vec::new();
    for (s, svc) in plan.services.iter().enumerate() {
        for (k, chunk) in svc.endpoints.chunks(MAX_PER_SLICE).enumerate() {
            slices.push(EndpointSlice {
                namespace: svc.namespace.clone(),
                name: slice_name(plan, s, k),
                service_name: Some(svc.name.clone()),
                managed_by: Some(CONTROLLER_NAME.to_string()),
                address_type: "IPv4".into(),
                ports: vec![],
                endpoints: chunk
                    .iter()
                    .map(|e| Endpoint {
                        addresses: vec![ip(e.ip)].into(),
                        ready: Some(e.ready),
                        serving: Some(e.ready),
                        terminating: Some(false),
                        node_name: Some(plan.nodes[e.node].name.as_str().into()),
                        zone: Some(plan.nodes[e.node].zone.as_str().into()),
                        hints: None,
                    })
                    .collect(),
            });
        }
    }
    Snapshot { nodes, services, slices, ..Snapshot::default() }
}

fn service_model(svc: &crate::plan::ServicePlan) -> model::Service {
    let mut annotations = BTreeMap::new();
    let mut traffic_distribution = None;
    match svc.mode {
        Mode::Auto => drop(annotations.insert(model::ANNOTATION_TOPOLOGY_MODE.into(), "Auto".into())),
        Mode::PreferClose => traffic_distribution = Some("PreferClose".to_string()),
        Mode::PreferSameZone => traffic_distribution = Some("PreferSameZone".to_string()),
        Mode::PreferSameNode => traffic_distribution = Some("PreferSameNode".to_string()),
        Mode::None => {}
    }
    model::Service {
        namespace: svc.namespace.clone(),
        name: svc.name.clone(),
        labels: Default::default(),
        annotations: annotations.into(),
        has_selector: true,
        selector: Default::default(),
        service_type: "ClusterIP".into(),
        cluster_ip: Some(ip(svc.cluster_ip)),
        ip_families: vec!["IPv4".into()],
        traffic_distribution,
        internal_traffic_policy: Some("Cluster".into()),
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        line: Default::default(),
        ports: vec![],
    }
}

/// The hints the controller writes for every Service (our engine's expected slices), then drift:
/// about 3 % of the hinted Services lose every hint, about 2 % get one endpoint hinted wrongly.
pub fn compute(plan: &ClusterPlan) -> (HintTable, Drift) {
    let snapshot = snapshot(plan);
    let cluster = Cluster::new(&snapshot, Behaviour::default());
    let mut table = HintTable::new();
    for (s, service) in snapshot.services.iter().enumerate() {
        let expected = analyze::expected_slices_in(&cluster, service);
        for slices in expected.values() {
            for slice in slices {
                let k = plan.services[s].slice_suffixes.iter().position(|x| slice.name.ends_with(x.as_str()));
                let Some(k) = k else { continue };
                for (i, e) in slice.endpoints.iter().enumerate() {
                    if let Some(h) = &e.hints {
                        table.insert((s, k, i), h.clone());
                    }
                }
            }
        }
    }
    let drift = drift(plan, &mut table);
    (table, drift)
}

fn drift(plan: &ClusterPlan, table: &mut HintTable) -> Drift {
    let mut rng = Rng::new(plan.size.seed ^ 0xd21f7);
    let mut hinted: Vec<usize> = table.keys().map(|k| k.0).collect();
    hinted.sort_unstable();
    hinted.dedup();
    let mut drift = Drift::default();
    for s in hinted {
        match rng.below(100) {
            0..3 => {
                let keys: Vec<_> = table.range((s, 0, 0)..(s + 1, 0, 0)).map(|(k, _)| *k).collect();
                keys.iter().for_each(|k| drop(table.remove(k)));
                drift.stripped += 1;
            }
            3..5 => {
                let key = table.range((s, 0, 0)..(s + 1, 0, 0)).next().map(|(k, _)| *k);
                if let Some(key) = key
                    && let Some(zones) = table.get_mut(&key).and_then(|h| h.for_zones.as_mut())
                {
                    let other = (0..plan.size.zones)
                        .map(crate::plan::zone_name)
                        .find(|z| !zones.iter().any(|have| **have == **z))
                        .unwrap_or_default();
                    *zones = [other.into()].into();
                    drift.wrong_zone += 1;
                }
            }
            _ => {}
        }
    }
    drift
}
