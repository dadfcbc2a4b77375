//! The `spec.trafficDistribution` path of the EndpointSlice controller: a port of
//! `k8s.io/endpointslice/trafficdist` (docs/behaviour.md#trafficdistribution-hints). Pure: inputs are never mutated; the result is a
//! new set of slice lists. Two versions exist: 1.33+ (`PreferClose`/`PreferSameZone`/
//! `PreferSameNode`, zone hints only for endpoints with a zone, node hints for `PreferSameNode`)
//! and ≤1.32 (only `PreferClose`; every ready endpoint gets `forZones:[zone or ""]`).

use std::sync::Arc;

use serde::Serialize;

use crate::model::{Behaviour, Endpoint, EndpointSlice, Hints};

/// `spec.trafficDistribution` value `PreferClose`.
pub const PREFER_CLOSE: &str = "PreferClose";
/// `spec.trafficDistribution` value `PreferSameZone` (1.33+).
pub const PREFER_SAME_ZONE: &str = "PreferSameZone";
/// `spec.trafficDistribution` value `PreferSameNode` (1.33+).
pub const PREFER_SAME_NODE: &str = "PreferSameNode";

/// The slice lists `ReconcileHints` takes and returns: the same `SliceInfo` the topology cache uses
/// (upstream passes one struct to both).
pub type TdSlices = crate::core::topologycache::SliceInfo;

/// Which heuristic `ReconcileHints` applies (`closeTrafficDistribution`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Heuristic {
    /// `preferCloseHeuristic`: own-zone hints on ready endpoints; own-node hints when `node_hints`.
    PreferClose {
        /// `generateNodeHints` (value `PreferSameNode`).
        node_hints: bool,
    },
    /// `defaultHeuristic`: remove every hint.
    Default,
}

/// True for controllers before ES `ae45d1c` (first in 1.33.0-rc.0): only `PreferClose` is close and
/// zone-less ready endpoints get a `""` zone hint (endpointslice v0.30 `trafficdist.go`).
fn legacy_prefer_close(behaviour: Behaviour) -> bool {
    behaviour.minor < 33
}

// mirrors trafficdist.go: ReconcileHints (choice of heuristic via closeTrafficDistribution)
/// The heuristic `ReconcileHints` picks for a `trafficDistribution` value at this version.
pub fn heuristic_for(traffic_distribution: Option<&str>, behaviour: Behaviour) -> Heuristic {
    match traffic_distribution {
        Some(PREFER_CLOSE) => Heuristic::PreferClose { node_hints: false },
        Some(PREFER_SAME_ZONE) if !legacy_prefer_close(behaviour) => {
            Heuristic::PreferClose { node_hints: false }
        }
        Some(PREFER_SAME_NODE) if !legacy_prefer_close(behaviour) => {
            Heuristic::PreferClose { node_hints: true }
        }
        _ => Heuristic::Default,
    }
}

// mirrors trafficdist.go: ReconcileHints
/// Reconciles hints for a `trafficDistribution` value: Unchanged slices that need an update are
/// copied to ToUpdate (appended in order), then every ToCreate/ToUpdate slice is updated. The input
/// is never mutated (upstream deep-copies Unchanged slices for the same reason).
pub fn reconcile_hints(
    traffic_distribution: Option<&str>,
    slices: &TdSlices,
    behaviour: Behaviour,
) -> TdSlices {
    let heuristic = heuristic_for(traffic_distribution, behaviour);
    let legacy = legacy_prefer_close(behaviour);
    let mut to_create = slices.to_create.clone();
    let mut to_update = slices.to_update.clone();
    let mut unchanged = Vec::new();
    for slice in &slices.unchanged {
        if needs_update(heuristic, legacy, slice) {
            to_update.push(slice.clone());
        } else {
            unchanged.push(slice.clone());
        }
    }
    for slice in to_create.iter_mut().chain(to_update.iter_mut()) {
        update(heuristic, legacy, slice);
    }
    TdSlices { address_type: slices.address_type.clone(), to_create, to_update, unchanged }
}

// mirrors trafficdist.go: defaultHeuristic.needsUpdate / preferCloseHeuristic.needsUpdate
fn needs_update(heuristic: Heuristic, legacy: bool, slice: &EndpointSlice) -> bool {
    match heuristic {
        Heuristic::Default => slice.endpoints.iter().any(|endpoint| endpoint.hints.is_some()),
        Heuristic::PreferClose { node_hints } => {
            slice.endpoints.iter().filter(|endpoint| endpoint.controller_ready()).any(|endpoint| {
                if legacy {
                    legacy_needs_update(endpoint)
                } else {
                    prefer_close_needs_update(endpoint, node_hints)
                }
            })
        }
    }
}

fn zone_hints(endpoint: &Endpoint) -> &[Arc<str>] {
    endpoint.hints.as_ref().and_then(|hints| hints.for_zones.as_deref()).unwrap_or(&[])
}

fn node_hints(endpoint: &Endpoint) -> &[Arc<str>] {
    endpoint.hints.as_ref().and_then(|hints| hints.for_nodes.as_deref()).unwrap_or(&[])
}

/// One ready endpoint, 1.33+ rules: wanted hint missing/wrong, or an unwanted hint present.
fn prefer_close_needs_update(endpoint: &Endpoint, generate_node_hints: bool) -> bool {
    let zones = zone_hints(endpoint);
    let zone_wrong = match &endpoint.zone {
        // `Hints == nil || len(ForZones) != 1 || ForZones[0].Name != zone`
        Some(zone) => zones.len() != 1 || &zones[0] != zone,
        None => !zones.is_empty(),
    };
    let nodes = node_hints(endpoint);
    let node_wrong = match (&endpoint.node_name, generate_node_hints) {
        (Some(node), true) => nodes.len() != 1 || &nodes[0] != node,
        _ => !nodes.is_empty(),
    };
    zone_wrong || node_wrong
}

/// One ready endpoint, ≤1.32 rules: exactly one zone hint equal to the zone (or `""`).
fn legacy_needs_update(endpoint: &Endpoint) -> bool {
    let zones = zone_hints(endpoint);
    let wanted = endpoint.zone.as_deref().unwrap_or("");
    endpoint.hints.is_none() || zones.len() != 1 || &*zones[0] != wanted
}

// mirrors trafficdist.go: defaultHeuristic.update / preferCloseHeuristic.update
fn update(heuristic: Heuristic, legacy: bool, slice: &mut EndpointSlice) {
    for endpoint in &mut slice.endpoints {
        match heuristic {
            Heuristic::Default => endpoint.hints = None,
            Heuristic::PreferClose { .. } if !endpoint.controller_ready() => {}
            Heuristic::PreferClose { .. } if legacy => {
                let zone = endpoint.zone.clone().unwrap_or_default();
                endpoint.hints = Some(Hints::zone(&zone));
            }
            Heuristic::PreferClose { node_hints } => {
                let for_zones = endpoint.zone.clone().map(|zone| [zone].into());
                let for_nodes = endpoint.node_name.clone().filter(|_| node_hints).map(|node| [node].into());
                endpoint.hints = if for_zones.is_some() || for_nodes.is_some() {
                    Some(Hints { for_zones, for_nodes })
                } else {
                    None
                };
            }
        }
    }
}

#[cfg(test)]
mod tests;
