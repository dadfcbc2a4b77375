//! The parts of a family report beyond the verdict: replicas needed ([`super::replicas`], Auto path
//! only), the cross-zone share ([`super::crosszone`]), the margin (Auto) and the load check (the
//! close trafficDistribution heuristics, `core::stability`).

use super::Cluster;
use super::callers::load;
use super::crosszone::{CrossZoneInput, cross_zone};
use super::replicas::{replicas_needed, spread_weights};
use super::spread::ready_spread;
use crate::core::mode::{ModeDecision, ModePath};
use crate::core::stability::{margin, row_margin};
use crate::core::trafficdist::Heuristic;
use crate::model::{EndpointSlice, Service};
use crate::report::stability::Margin;
use crate::report::stability::load::LoadCheck;
use crate::report::{CrossZone, FamilyReport, ReplicasNeeded};

/// Replicas needed and the cross-zone share of one family report.
#[derive(Debug, Default)]
pub(super) struct FamilyExtras {
    replicas: Option<ReplicasNeeded>,
    cross_zone: Option<CrossZone>,
    stability: Option<Margin>,
    load: Option<LoadCheck>,
}

impl FamilyExtras {
    /// Fill them into the report.
    pub(super) fn apply(self, report: &mut FamilyReport) {
        report.replicas = self.replicas;
        report.cross_zone = self.cross_zone;
        report.stability = self.stability;
        report.load = self.load;
    }
}

/// Replicas needed (Auto path only) and the cross-zone share of one address family: `all` are its
/// slices of any manager, `managed` the controller's, `expected` those after the next sync (with
/// `kept`, the live ones as they are: `all`'s managed slices themselves are routed then, which
/// the cross-zone share recognises as today's without comparing every endpoint).
pub(super) fn family_extras(
    cluster: &Cluster<'_>,
    service: &Service,
    all: &[&EndpointSlice],
    managed: &[EndpointSlice],
    (expected, kept): (&[EndpointSlice], bool),
    decision: &ModeDecision,
) -> FamilyExtras {
    let auto = decision.path == ModePath::Annotation;
    let stability = auto
        .then(|| {
            let ready = ready_spread(managed.iter());
            // A check row and `serve`'s summary read only the nearest share move and fragile.
            match cluster.row_only || cluster.summary_only {
                true => row_margin(&cluster.topology, &ready, &cluster.nearest_shares),
                false => margin(&cluster.topology, &cluster.node_sizes, &ready),
            }
        })
        .flatten();
    // `serve`'s summary shows no replicas needed.
    let replicas = (auto && !cluster.summary_only).then(|| {
        let (weights, basis) = spread_weights(managed, &cluster.topology);
        let current = managed.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()).count();
        replicas_needed(&cluster.topology.ratios, &weights, basis, current as i64)
    });
    let others = all.iter().copied().filter(|s| !s.is_controller_managed());
    let after: Vec<&EndpointSlice> = match kept {
        true => others.chain(all.iter().copied().filter(|s| s.is_controller_managed())).collect(),
        false => others.chain(expected.iter()).collect(),
    };
    let input = CrossZoneInput {
        service,
        nodes: &cluster.proxy_nodes,
        origins: &cluster.origins,
        topology: &cluster.topology,
        behaviour: cluster.behaviour,
        model: &cluster.traffic,
        now: all,
        expected: &after,
        detail: !cluster.row_only && !cluster.summary_only,
        without_hints: cluster.summary_only,
    };
    let cross_zone = cross_zone(&input);
    // No overload safeguard on the close heuristics: say which endpoints their hints overload or
    // leave idle (per-endpoint loads exist in `explain`'s detail only), the callers weighed by the
    // front door's Pods when the Service has one (`callers.rs`).
    let close =
        matches!(decision.path, ModePath::TrafficDistribution { heuristic: Heuristic::PreferClose { .. } });
    let load = (close && !cluster.row_only && !cluster.summary_only)
        .then(|| load(cluster, &input, cross_zone.as_ref(), managed))
        .flatten();
    FamilyExtras { replicas, cross_zone, stability, load }
}
