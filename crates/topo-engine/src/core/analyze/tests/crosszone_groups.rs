//! The cross-zone share routes requests per group of origins (a whole (zone, Windows) class of
//! nodes at once, plus the nodes a Service's endpoints or hints name). This checks it against the
//! direct reading of the model: every node's requests sent over the endpoints kube-proxy gives
//! that very node ([`proxy_view_on`], which lists the nodes of each group).

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::core::analyze::crosszone::{CrossZoneInput, Origins, TrafficModel, cross_zone, origins};
use crate::core::analyze::{Cluster, check_row, check_with, service_report};
use crate::core::proxy::{ProxyNodes, proxy_view_on};
use crate::core::testkit_td::{EndpointTestExt, ServiceTestExt, ep, node, service, slice};
use crate::core::zones::set_nodes;
use crate::model::{Behaviour, CpuAmount, EndpointSlice, Node, Service, Snapshot};

const ZONES: [&str; 3] = ["a", "b", "c"];

fn nodes_strategy() -> impl Strategy<Value = Vec<Node>> {
    let one = (0..4usize, any::<bool>(), 0..3i64, any::<bool>());
    prop::collection::vec(one, 1..10).prop_map(|specs| {
        let mut nodes: Vec<Node> = specs
            .into_iter()
            .enumerate()
            .map(|(i, (zone, windows, cpu, ready))| {
                let mut n = node(&format!("n{i}"), ZONES.get(zone).copied());
                if windows {
                    n.labels.insert("kubernetes.io/os".into(), "windows".into());
                }
                n.allocatable_cpu = Some(CpuAmount::from_millis(cpu * 1500 + 500));
                n.ready = Some(if ready { "True" } else { "False" }.into());
                n
            })
            .collect();
        nodes.reverse(); // rows are sorted by name: the order given must not matter
        nodes
    })
}

/// An endpoint: (node index or none, zone index or none, ready, hint kind 0–3, hint target).
type EndpointSpec = (Option<usize>, Option<usize>, bool, u8, usize);

fn endpoints_strategy() -> impl Strategy<Value = Vec<EndpointSpec>> {
    let one = (prop::option::of(0..12usize), prop::option::of(0..3usize), any::<bool>(), 0..4u8, 0..12usize);
    prop::collection::vec(one, 0..12)
}

fn slices_of(specs: &[EndpointSpec]) -> Vec<EndpointSlice> {
    let endpoints = specs
        .iter()
        .enumerate()
        .map(|(i, &(node_index, zone, ready, hint, target))| {
            let mut e = ep(&format!("10.0.0.{i}")).ready(ready);
            if let Some(n) = node_index {
                e = e.node(&format!("n{n}"));
            }
            if let Some(z) = zone {
                e = e.zone(ZONES[z]);
            }
            match hint {
                1 => e.hint_zones(&[ZONES[target % 3]]),
                2 => e.hint_zones(&[ZONES[target % 3]]).hint_nodes(&[&format!("n{target}")]),
                3 => e.hints_empty(),
                _ => e,
            }
        })
        .collect();
    vec![slice("s1", endpoints)]
}

fn service_of(kind: u8) -> Service {
    match kind {
        0 => service(),
        1 => service().itp_local(),
        2 => service().traffic_distribution("PreferSameNode"),
        _ => service().annotation("service.kubernetes.io/topology-mode", "Auto"),
    }
}

/// Per origin zone (total, cross, dropped) and per address load, routing node by node.
/// Per origin zone (total, cross, dropped), per endpoint load, per (origin, destination zone) requests.
type Direct = (BTreeMap<String, (f64, f64, f64)>, BTreeMap<String, f64>, BTreeMap<(String, String), f64>);

fn direct(service: &Service, slices: &[&EndpointSlice], nodes: &[Node], behaviour: Behaviour) -> Direct {
    let view = proxy_view_on(service, slices, &ProxyNodes::new(nodes), behaviour);
    let zone_of: BTreeMap<String, String> = slices
        .iter()
        .flat_map(|s| &s.endpoints)
        .map(|e| {
            let by_node = e.node_name.as_deref().and_then(|n| nodes.iter().find(|x| x.name == n));
            let node_zone = by_node.and_then(|n| n.labels.get(crate::model::LABEL_ZONE).cloned());
            (e.addresses[0].clone(), e.zone.as_deref().map(str::to_string).or(node_zone).unwrap_or_default())
        })
        .collect();
    let (mut zones, mut loads, mut flows) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
    for (name, zone, weight) in origins(nodes, &set_nodes(nodes), &TrafficModel::ZoneCpu) {
        let entry: &mut (f64, f64, f64) = zones.entry(zone.clone()).or_default();
        entry.0 += weight;
        let group = view.zones.iter().find(|g| g.nodes.contains(&name)).expect("every node has a group");
        if group.endpoints.is_empty() {
            entry.2 += weight;
            continue;
        }
        let each = weight / group.endpoints.len() as f64;
        for address in group.endpoints.iter() {
            *loads.entry(address.clone()).or_insert(0.0) += each;
            let dest = zone_of.get(address).cloned().unwrap_or_default();
            *flows.entry((zone.clone(), dest)).or_insert(0.0) += each;
            if zone_of.get(address).is_none_or(|z| *z != group.zone) {
                entry.1 += each;
            }
        }
    }
    (zones, loads, flows)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn routing_per_group_equals_routing_per_node(
        nodes in nodes_strategy(),
        endpoints in endpoints_strategy(),
        kind in 0..4u8,
        minor in prop::sample::select(vec![30u32, 33, 36]),
    ) {
        let (service, slices) = (service_of(kind), slices_of(&endpoints));
        let behaviour = Behaviour::new(minor);
        let proxy_nodes = ProxyNodes::new(&nodes);
        let topology = set_nodes(&nodes);
        let origins_indexed = Origins::new(&nodes, &topology, &TrafficModel::ZoneCpu, &proxy_nodes);
        let now: Vec<&EndpointSlice> = slices.iter().collect();
        let input = CrossZoneInput {
            service: &service, nodes: &proxy_nodes, origins: &origins_indexed, topology: &topology,
            behaviour, model: &TrafficModel::ZoneCpu, now: &now, expected: &now, detail: true, without_hints: false,
        };
        let Some(result) = cross_zone(&input) else { return Ok(()) };
        // What `check` computes alone: the same overall figures, to the last bit.
        let overall = cross_zone(&CrossZoneInput { detail: false, ..input }).expect("routed with detail");
        prop_assert_eq!(overall.overall.now, result.overall.now);
        prop_assert_eq!(overall.overall.expected, result.overall.expected);
        // What `serve` computes: the share without hints too, to the last bit.
        let summary = cross_zone(&CrossZoneInput { detail: false, without_hints: true, ..input })
            .expect("routed with detail");
        prop_assert_eq!(summary.overall, result.overall);
        let (zones, loads, flows) = direct(&service, &now, &nodes, behaviour);
        prop_assert_eq!(result.zones.len(), zones.len());
        for row in &result.zones {
            let (total, cross, dropped) = zones[&row.zone];
            prop_assert!(close(row.traffic_share, total), "{}: {} vs {}", row.zone, row.traffic_share, total);
            let share = &row.share.now;
            prop_assert!(close(share.cross_zone * total, cross), "{}: cross {:?} vs {}", row.zone, share, cross);
            prop_assert!(close(share.dropped * total, dropped), "{}: dropped {:?} vs {}", row.zone, share, dropped);
            // The routing matrix row: requests per destination zone, node by node.
            let mut want: Vec<(&String, f64)> =
                flows.iter().filter(|((from, _), _)| *from == row.zone).map(|((_, to), w)| (to, *w)).collect();
            want.retain(|(_, w)| *w > 0.0);
            let got: Vec<&String> = row.destinations.iter().filter(|d| d.share.now > 0.0).map(|d| &d.zone).collect();
            prop_assert_eq!(got, want.iter().map(|(to, _)| *to).collect::<Vec<_>>());
            for (to, w) in want {
                let d = row.destinations.iter().find(|d| &d.zone == to).expect("destination");
                prop_assert!(close(d.share.now * total, w), "{} → {}: {} vs {}", row.zone, to, d.share.now * total, w);
            }
            let sent: f64 = row.destinations.iter().map(|d| d.share.now).sum();
            prop_assert!(total == 0.0 || (sent + share.dropped - 1.0).abs() < 1e-9, "{}: {sent} + {:?}", row.zone, share);
        }
        // Loads are printed relative to an even share over the endpoints used without hints.
        let n = result.endpoints.iter().filter(|e| e.load.without_hints > 0.0).count() as f64;
        if n == 0.0 {
            return Ok(());
        }
        let mut routed: Vec<&String> =
            result.endpoints.iter().filter(|e| e.load.now > 0.0).map(|e| &e.address).collect();
        routed.sort();
        prop_assert_eq!(routed, loads.keys().collect::<Vec<_>>());
        for e in result.endpoints.iter().filter(|e| e.load.now > 0.0) {
            prop_assert!(close(e.load.now / n, loads[&e.address]), "{}: {} vs {}", e.address, e.load.now / n, loads[&e.address]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// `check` computes only what its rows show; the rows are those of the full reports, and keep
    /// their lists at their length (a row lives to the end of the run).
    #[test]
    fn check_rows_are_those_of_full_reports(
        nodes in nodes_strategy(),
        endpoints in endpoints_strategy(),
        kind in 0..4u8,
        minor in prop::sample::select(vec![30u32, 33, 36]),
    ) {
        let service = service_of(kind);
        let snapshot = Snapshot {
            nodes, services: vec![service.clone()], slices: slices_of(&endpoints), ..Snapshot::default()
        };
        let behaviour = Behaviour::new(minor);
        let rows = check_with(&snapshot, &[&service], behaviour, &TrafficModel::ZoneCpu, 1).services;
        for row in &rows {
            prop_assert_eq!(row.families.capacity(), row.families.len());
            prop_assert!(row.families.iter().all(|f| f.reasons.capacity() == f.reasons.len()));
        }
        let full = service_report(&Cluster::new(&snapshot, behaviour), &service);
        prop_assert_eq!(rows, vec![check_row(full)]);
    }
}
