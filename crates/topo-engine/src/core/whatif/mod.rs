//! What-if questions on a Snapshot, answered with the same ports `explain` uses: how many ready
//! endpoints let hints hold ([`replicas`]), how much traffic leaves its zone ([`crosszone`]), and
//! what a changed cluster looks like once the controller has reacted ([`simulate`]). Pure.

pub mod changes;
pub mod crosszone;
mod endpoints;
mod nodes;
pub mod replicas;
pub mod simulate;
pub mod spread;
mod summary;
mod sync;

#[cfg(test)]
mod tests;

pub use crosszone::{CrossZoneInput, TrafficModel, cross_zone};
pub use replicas::{hints_hold, replicas_needed, spread_weights};
pub use simulate::simulate;

use crate::core::analyze::Cluster;
use crate::core::mode::{ModeDecision, ModePath};
use crate::model::{EndpointSlice, Service};
use crate::report::FamilyReport;
use crate::report::whatif::{CrossZone, ReplicasNeeded};

/// The what-if parts of one family report.
#[derive(Debug, Default)]
pub struct FamilyExtras {
    replicas: Option<ReplicasNeeded>,
    cross_zone: Option<CrossZone>,
}

impl FamilyExtras {
    /// Fill them into the report.
    pub fn apply(self, report: &mut FamilyReport) {
        report.replicas = self.replicas;
        report.cross_zone = self.cross_zone;
    }
}

/// Replicas needed (Auto path only) and the cross-zone share of one address family: `all` are its
/// slices of any manager, `managed` the controller's, `expected` those after the next sync.
pub fn family_extras(
    cluster: &Cluster<'_>,
    service: &Service,
    all: &[&EndpointSlice],
    managed: &[EndpointSlice],
    expected: &[EndpointSlice],
    decision: &ModeDecision,
) -> FamilyExtras {
    let replicas = (decision.path == ModePath::Annotation).then(|| {
        let (weights, basis) = spread_weights(managed, &cluster.topology);
        let current = managed.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()).count();
        replicas_needed(&cluster.topology.ratios, &weights, basis, current as i64)
    });
    let after: Vec<&EndpointSlice> =
        all.iter().copied().filter(|s| !s.is_controller_managed()).chain(expected.iter()).collect();
    let cross_zone = cross_zone(&CrossZoneInput {
        service,
        nodes: &cluster.proxy_nodes,
        origins: &cluster.origins,
        topology: &cluster.topology,
        behaviour: cluster.behaviour,
        model: &cluster.traffic,
        now: all,
        expected: &after,
    });
    FamilyExtras { replicas, cross_zone }
}
