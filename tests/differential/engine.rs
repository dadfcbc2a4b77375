//! The engine's answer to one differential case, in the oracle's terms ([`Ours`]): the path, the
//! steady and fresh syncs per address family, and kube-proxy's endpoints on every node the oracle
//! reports (the dump's and its synthetic ones).

use std::collections::{BTreeMap, BTreeSet};

use kubectl_topo::source::dump::parse_dump;
use serde_json::Value;
use topo_engine::core::analyze;
use topo_engine::core::mode::{self, ModePath};
use topo_engine::core::proxy::proxy_view;
use topo_engine::core::topologycache::service_overloaded;
use topo_engine::core::zones::set_nodes;
use topo_engine::model::{Behaviour, EndpointSlice, LABEL_ZONE, Node, Service, Snapshot};
use topo_engine::report::FamilyReport;

use super::compare::{self, EndpointMeta, Event, HintsOut, OurFamily, OurProxy, Ours};

pub(super) fn behaviour_of(case: &Value) -> Result<Behaviour, String> {
    match case["k8sVersion"].as_str().unwrap_or("") {
        "" => Ok(Behaviour::default()),
        v => v.parse::<Behaviour>().map_err(|e| e.to_string()),
    }
}

/// Run the engine on a case (steady, fresh, kube-proxy).
pub(super) fn engine(case: &Value) -> Result<Ours, String> {
    let behaviour = behaviour_of(case)?;
    let text = serde_json::to_string(&case["dump"]).expect("JSON");
    let parsed = parse_dump(&text, "case").map_err(|e| format!("engine cannot read the dump: {e}"))?;
    let snapshot = parsed.snapshot;
    let [service] = snapshot.services.as_slice() else {
        return Err(format!("engine read {} Services, want 1", snapshot.services.len()));
    };
    let decision = mode::select_mode(service, behaviour);
    let path = if mode::controller_reconciles(service).is_some() {
        "none"
    } else {
        match decision.path {
            ModePath::Annotation => "annotation",
            ModePath::TrafficDistribution { .. } => "trafficDistribution",
            ModePath::RemoveHints => "remove",
        }
    };
    let steady = families(&snapshot, service, behaviour);
    let fresh = (path != "none").then(|| families(&stripped(&snapshot, service), service, behaviour));
    let reported: Vec<String> = steady.iter().map(|f| f.family.clone()).collect();
    Ok(Ours { path: path.into(), steady, fresh, proxy: proxy(&snapshot, service, &reported, behaviour) })
}

/// Managed slices of the Service with every hint removed: what a fresh sync starts from.
fn stripped(snapshot: &Snapshot, service: &Service) -> Snapshot {
    let mut s = snapshot.clone();
    for slice in s.slices.iter_mut().filter(|sl| managed_by(sl, service)) {
        for e in &mut slice.endpoints {
            e.hints = None;
        }
    }
    s
}

fn managed_by(slice: &EndpointSlice, service: &Service) -> bool {
    slice.is_for(service) && slice.is_controller_managed()
}

fn key(slice: &EndpointSlice, i: usize) -> String {
    let e = &slice.endpoints[i];
    format!("{}/{i}/{}", slice.name, e.addresses.first().map(String::as_str).unwrap_or(""))
}

/// The model's shared names as the comparison's own strings.
fn owned(names: Option<&[std::sync::Arc<str>]>) -> Option<Vec<String>> {
    names.map(|names| names.iter().map(|n| n.to_string()).collect())
}

fn ready_counts(slices: &[EndpointSlice]) -> compare::Counts {
    let mut counts = compare::Counts::new();
    for e in slices.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()) {
        for z in e.hints.iter().flat_map(|h| h.for_zones.iter().flatten()) {
            *counts.entry(z.to_string()).or_default() += 1;
        }
    }
    counts
}

fn families(snapshot: &Snapshot, service: &Service, behaviour: Behaviour) -> Vec<OurFamily> {
    let report = analyze::explain(snapshot, service, behaviour);
    let ratios = set_nodes(&snapshot.nodes).ratios;
    let annotation = matches!(mode::select_mode(service, behaviour).path, ModePath::Annotation)
        && mode::controller_reconciles(service).is_none();
    let mut expected = analyze::expected_slices(snapshot, service, behaviour);
    report
        .families
        .iter()
        .map(|f: &FamilyReport| {
            let live: Vec<EndpointSlice> = snapshot
                .slices
                .iter()
                .filter(|s| managed_by(s, service) && s.address_type == f.address_type)
                .cloned()
                .collect();
            let expected = expected.remove(&f.address_type).unwrap_or_default();
            let mut hints = BTreeMap::new();
            let mut endpoints = BTreeMap::new();
            for slice in &expected {
                for (i, e) in slice.endpoints.iter().enumerate() {
                    let h = e.hints.as_ref().map(|h| HintsOut {
                        for_zones: owned(h.for_zones.as_deref()),
                        for_nodes: owned(h.for_nodes.as_deref()),
                    });
                    hints.insert(key(slice, i), h);
                    endpoints.insert(
                        key(slice, i),
                        EndpointMeta {
                            zone: e.zone.as_deref().map(str::to_string),
                            ready: e.controller_ready(),
                        },
                    );
                }
            }
            let mut changed = f.rewritten_slices.clone();
            changed.sort();
            let counts = ready_counts(&expected);
            OurFamily {
                family: f.address_type.clone(),
                no_managed_slices: live.is_empty(),
                changed,
                event: f.event.as_ref().map(|e| Event {
                    event_type: e.event_type.clone(),
                    reason: e.reason.clone(),
                    message: e.message.clone(),
                }),
                overloaded_after_sync: annotation.then(|| service_overloaded(&counts, &ratios)),
                counts,
                live_counts: ready_counts(&live),
                count_outcomes: f.count_outcomes.clone(),
                hints,
                endpoints,
                overloaded: f.overloaded,
            }
        })
        .collect()
}

/// kube-proxy per reported family, on the dump's nodes plus the oracle's synthetic ones
/// (`oracle-zoneless`, `oracle-in-<zone>` for every zone seen in the case: node labels, endpoint
/// zones, zone hints of any slice), which host no endpoint.
fn proxy(
    snapshot: &Snapshot,
    service: &Service,
    families: &[String],
    behaviour: Behaviour,
) -> BTreeMap<String, OurProxy> {
    let mut zones: BTreeSet<String> =
        snapshot.nodes.iter().filter_map(|n| n.labels.get(LABEL_ZONE).cloned()).collect();
    for e in snapshot.slices.iter().flat_map(|s| &s.endpoints) {
        zones.extend(e.zone.iter().map(|z| z.to_string()));
        zones.extend(e.hints.iter().flat_map(|h| h.for_zones.iter().flatten()).map(|z| z.to_string()));
    }
    let synthetic = |name: String, zone: Option<&String>| Node {
        name,
        labels: zone.map(|z| (LABEL_ZONE.to_string(), z.clone())).into_iter().collect(),
        allocatable_cpu: None,
        ready: None,
        kubelet_version: None,
    };
    let mut nodes = snapshot.nodes.clone();
    nodes.push(synthetic("oracle-zoneless".into(), None));
    nodes.extend(zones.iter().map(|z| synthetic(format!("oracle-in-{z}"), Some(z))));
    let local = itp_local_list(service, behaviour);
    families
        .iter()
        .map(|family| {
            let slices: Vec<&EndpointSlice> =
                snapshot.slices.iter().filter(|s| s.address_type == *family).collect();
            let view = proxy_view(service, &slices, &nodes, behaviour);
            let port = view.port.as_ref().map(|_| {
                let p = &service.ports[0];
                format!("{}/{}", p.name, p.protocol)
            });
            let nodes = view
                .zones
                .iter()
                .flat_map(|z| z.nodes.iter().map(move |n| (n.clone(), z.endpoints.to_vec())))
                .collect();
            (family.clone(), OurProxy { port, local, nodes })
        })
        .collect()
}

/// ClusterIP traffic takes the oracle's local list: iTP=Local, and before 1.24 only when the
/// Service is not eTP=Local on a NodePort/LoadBalancer (1.23's `FilterEndpoints` returns every
/// endpoint for those first, the `cluster` list) and from 1.22 (ServiceInternalTrafficPolicy
/// alpha, off, in 1.21).
fn itp_local_list(service: &Service, behaviour: Behaviour) -> bool {
    let local = service.internal_traffic_policy.as_deref() == Some("Local");
    if behaviour.minor >= 24 {
        return local;
    }
    let external_local = service.external_traffic_policy.as_deref() == Some("Local")
        && matches!(service.service_type.as_str(), "NodePort" | "LoadBalancer");
    local && !external_local && behaviour.minor >= 22
}
