//! `serve`'s reports ([`service_reports_indexed`], [`Cluster::summary_only`]) leave out what its
//! summary does not read, and carry every other figure of the full report to the last bit.

use crate::core::analyze::{NodeIndex, TrafficModel, service_reports_indexed, service_reports_with};
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, ep, node, service, slice};
use crate::model::{ANNOTATION_TOPOLOGY_MODE, Behaviour, CpuAmount, Service, Snapshot};
use crate::report::{CrossZone, Outcomes, ServiceReport};

/// A Service named `name` of the test kit's namespace, with its own slice over three zones:
/// hinted to `hints` (one zone per endpoint), or unhinted.
fn with_slice(
    name: &str,
    service: Service,
    hints: Option<[&str; 4]>,
) -> (Service, crate::model::EndpointSlice) {
    let zones = ["a", "a", "b", "c"];
    let endpoints = (0..4).map(|i| {
        let e = ep(&format!("10.0.{}.{i}", name.len())).zone(zones[i]).node(&format!("n{i}")).ready(true);
        match hints {
            Some(h) => e.hint_zones(&[h[i]]),
            None => e,
        }
    });
    let mut own = slice(&format!("{name}-1"), endpoints.collect());
    own.service_name = Some(name.to_string());
    (Service { name: name.to_string(), ..service }, own)
}

/// The full report as `serve` has it: no endpoint rows, replicas needed, cross-zone rows,
/// endpoint loads or load check, and of the margin no per-zone shares or Node flips.
fn as_summary(mut report: ServiceReport) -> ServiceReport {
    for family in &mut report.families {
        family.endpoints.clear();
        family.replicas = None;
        family.load = None;
        if let Some(margin) = &mut family.stability {
            (margin.shares, margin.nodes, margin.nodes_examined) = (Vec::new(), Vec::new(), 0);
        }
        family.cross_zone = family.cross_zone.take().map(|c| CrossZone {
            zones: Vec::new(),
            endpoints: Vec::new(),
            max_load: Outcomes { now: None, expected: None, without_hints: None },
            ..c
        });
    }
    report
}

#[test]
fn serve_reports_are_the_full_reports_less_what_serve_does_not_read() {
    let nodes: Vec<_> = ["a", "a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(i, z)| crate::model::Node {
            allocatable_cpu: Some(CpuAmount::from_millis(1000 * (i as i64 + 1))),
            ..node(&format!("n{i}"), Some(z))
        })
        .collect();
    let auto = service().annotation(ANNOTATION_TOPOLOGY_MODE, "Auto");
    let pairs = [
        with_slice("auto-hinted", auto.clone(), Some(["a", "a", "b", "c"])),
        with_slice("auto-stripped", auto.clone(), None),
        with_slice("auto-skewed", auto, Some(["a", "b", "b", "c"])),
        with_slice("close", service().traffic_distribution("PreferClose"), Some(["a", "a", "b", "c"])),
        with_slice("plain", service(), None),
    ];
    let snapshot = Snapshot {
        nodes,
        services: pairs.iter().map(|p| p.0.clone()).collect(),
        slices: pairs.iter().map(|p| p.1.clone()).collect(),
        ..Snapshot::default()
    };
    let services: Vec<&Service> = snapshot.services.iter().collect();
    // What the comparison would miss if the fixture never made it: checked over every release.
    let (mut loads, mut replicas, mut margins) = (0, 0, 0);
    for minor in [30, 33, 36] {
        let behaviour = Behaviour::new(minor);
        let index = NodeIndex::new(&snapshot.nodes, &TrafficModel::default());
        let served = service_reports_indexed(&snapshot, &services, behaviour, &index, 1);
        let full = service_reports_with(&snapshot, &services, behaviour, &TrafficModel::default(), 1);
        let hinted = full.iter().flat_map(|r| &r.families).filter_map(|f| f.cross_zone.as_ref());
        assert!(hinted.filter(|c| c.overall.without_hints != c.overall.now).count() >= 2, "hints matter");
        loads += full.iter().flat_map(|r| &r.families).filter(|f| f.load.is_some()).count();
        replicas += full.iter().flat_map(|r| &r.families).filter(|f| f.replicas.is_some()).count();
        let shares = full.iter().flat_map(|r| &r.families).filter_map(|f| f.stability.as_ref());
        margins += shares.filter(|m| !m.shares.is_empty() && m.nearest_share_points.is_some()).count();
        for (served, full) in served.into_iter().zip(full) {
            assert_eq!(served, as_summary(full), "1.{minor}");
        }
    }
    assert!(loads > 0 && replicas > 0, "{loads} load checks, {replicas} replicas needed left out");
    assert!(margins > 0, "no margin's nearest share move compared");
}
