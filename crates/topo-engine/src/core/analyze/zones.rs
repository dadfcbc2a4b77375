//! The `zones` report and the node-side safeguards as reasons.

use super::Cluster;
use super::rows::{overload_percent, own_zone_counts};
use crate::core::topologycache::Disabled;
use crate::core::zones::{ExclusionReason, NodeTopology, PoisonReason, Ratios, node_zone};
use crate::model::EndpointSlice;
use crate::report::ZoneReport;
use crate::report::reason::{Facts, Reason, ReasonCode as C};
use crate::report::zones::{NodeLine, ZoneLine};

/// `zones` from the cluster's node topology.
pub fn zones_report(cluster: &Cluster<'_>) -> ZoneReport {
    let t = &cluster.topology;
    let ratios = match &t.ratios {
        Ratios::Map(m) => Some(m),
        Ratios::Nil => None,
    };
    let zones = t
        .zones
        .iter()
        .map(|(zone, z)| ZoneLine {
            zone: zone.clone(),
            nodes_total: z.nodes_total,
            nodes_counted: z.nodes_counted,
            cpu_millis: z.cpu_millis,
            share: ratios.and_then(|r| r.get(zone)).copied(),
        })
        .collect();
    let excluded = t.excluded.iter().map(excluded_line).collect();
    let disabling = t.poisoning.iter().map(|n| disabling_line(cluster, n)).collect();
    let sufficient = matches!(t.ratios, Ratios::Map(_));
    let reasons = if sufficient { vec![] } else { vec![node_reason(t)] };
    ZoneReport {
        kubernetes_version: cluster.behaviour.to_string(),
        kubernetes_version_basis: None,
        zones,
        total_cpu_millis: t.total_cpu_millis,
        excluded,
        disabling,
        sufficient,
        reasons,
        partial: cluster.snapshot.info.partial.clone(),
    }
}

fn excluded_line(n: &crate::core::zones::ExcludedNode) -> NodeLine {
    let why = match n.why {
        ExclusionReason::ControlPlane => "ControlPlane",
        ExclusionReason::NotReady => "NotReady",
    };
    NodeLine { name: n.name.clone(), zone: n.zone.clone(), why: why.into() }
}

fn disabling_line(cluster: &Cluster<'_>, n: &crate::core::zones::PoisonNode) -> NodeLine {
    let why = match n.why {
        PoisonReason::MissingZone => "MissingZone",
        PoisonReason::MissingCpu => "MissingCPU",
        PoisonReason::MissingZoneAndCpu => "MissingZoneAndCPU",
    };
    NodeLine { name: n.name.clone(), zone: zone_label(cluster, &n.name), why: why.into() }
}

fn zone_label(cluster: &Cluster<'_>, node: &str) -> Option<String> {
    let n = cluster.snapshot.nodes.iter().find(|n| n.name == node)?;
    node_zone(n).map(str::to_string)
}

/// Why ratios are nil: the first kind of poisoning node upstream would hit, else too few zones.
pub(crate) fn node_reason(t: &NodeTopology) -> Reason {
    if let Some(first) = t.poisoning.first() {
        let code = match first.why {
            PoisonReason::MissingZone | PoisonReason::MissingZoneAndCpu => C::NodeMissingZone,
            PoisonReason::MissingCpu => C::NodeMissingCPU,
        };
        let nodes = t.poisoning.iter().filter(|n| n.why == first.why).map(|n| n.name.clone()).collect();
        return Reason::with(code, Facts { nodes, ..Facts::default() });
    }
    let zones = t.counted_zones().count() as i64;
    Reason::with(C::SingleZone, Facts { zones: Some(zones), ..Facts::default() })
}

/// The safeguard behind a `Disabled` outcome of `AddHints`, with its numbers.
pub(crate) fn disabled_reason(t: &NodeTopology, disabled: &Disabled, managed: &[EndpointSlice]) -> Reason {
    match disabled {
        Disabled::InsufficientNodeInfo | Disabled::OneZone => node_reason(t),
        Disabled::InsufficientEndpoints { endpoints, zones } => Reason::with(
            C::InsufficientEndpoints,
            Facts { endpoints: Some(*endpoints), zones: Some(*zones), ..Facts::default() },
        ),
        Disabled::OverloadThreshold { endpoints, zones, minimum_total } => {
            let own = own_zone_counts(managed);
            let worst = match &t.ratios {
                Ratios::Map(r) => r
                    .iter()
                    .map(|(z, s)| overload_percent(*s, *endpoints, own.get(z).copied().unwrap_or(0)))
                    .try_fold(f64::MIN, |acc, p| p.map(|p| acc.max(p))),
                Ratios::Nil => None,
            };
            Reason::with(
                C::OverloadThreshold,
                Facts {
                    endpoints: Some(*endpoints),
                    zones: Some(*zones),
                    minimum_total: Some(*minimum_total),
                    overload_percent: worst.map(|p| (p * 10.0).round() / 10.0),
                    ..Facts::default()
                },
            )
        }
        Disabled::NoZoneSpecified { addresses } => {
            Reason::with(C::EndpointMissingZone, Facts { addresses: addresses.clone(), ..Facts::default() })
        }
        Disabled::NoHintsAllocated => Reason::new(C::NoHintsAllocated),
    }
}

/// Why a non-Auto path expects no hints although it runs (e.g. PreferClose without zones).
pub(crate) fn no_hints_reason(managed: &[EndpointSlice]) -> Reason {
    let ready: Vec<_> = managed.iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()).collect();
    let zoneless: Vec<String> = ready
        .iter()
        .filter(|e| e.zone.as_deref().is_none_or(str::is_empty))
        .filter_map(|e| e.addresses.first().cloned())
        .collect();
    if ready.is_empty() {
        return Reason::with(C::InsufficientEndpoints, Facts { endpoints: Some(0), ..Facts::default() });
    }
    Reason::with(C::EndpointMissingZone, Facts { addresses: zoneless, ..Facts::default() })
}
