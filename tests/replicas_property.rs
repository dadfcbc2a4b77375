//! Brute force against the real engine: for random clusters, the counts "replicas needed" reports
//! as working are exactly the counts n in [1, 100] for which `analyze::explain` on a snapshot with n
//! fresh endpoints (spread by the documented rule) says the controller writes hints.

use std::collections::BTreeMap;

use proptest::prelude::*;
use topo_engine::core::analyze::{self, spread::spread, spread_weights};
use topo_engine::core::zones::set_nodes;
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::ControllerAction;

use crate::support::model::{auto_service, endpoint, node, slice, snapshot};

const ZONES: [&str; 5] = ["a", "b", "c", "d", "e"];

/// A cluster: CPU (milli) of one node per zone, and today's ready endpoints per zone — the node
/// zones, a zone `x` without nodes (a "sink", W7 in docs/behaviour.md#worked-examples) and `""` (no zone).
#[derive(Debug, Clone)]
struct Cluster {
    cpu: Vec<i64>,
    today: BTreeMap<String, i64>,
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (2usize..=5)
        .prop_flat_map(|zones| {
            let cpu = prop::collection::vec((1i64..=64).prop_map(|q| q * 250), zones);
            let counts = prop::collection::vec(0i64..=6, zones);
            (cpu, counts, 0i64..=2, prop::sample::select(vec![0i64, 0, 0, 1]))
        })
        .prop_map(|(cpu, counts, sink, zoneless)| {
            let mut today: BTreeMap<String, i64> =
                counts.iter().enumerate().map(|(i, n)| (ZONES[i].to_string(), *n)).collect();
            today.insert("x".into(), sink);
            today.insert(String::new(), zoneless);
            today.retain(|_, n| *n > 0);
            Cluster { cpu, today }
        })
}

/// The snapshot with `counts` fresh (hint-less) ready endpoints per zone.
fn build(c: &Cluster, counts: &BTreeMap<String, i64>) -> Snapshot {
    let nodes =
        c.cpu.iter().enumerate().map(|(i, m)| node(&format!("node-{}", ZONES[i]), ZONES[i], *m)).collect();
    let mut endpoints = Vec::new();
    for (zone, k) in counts {
        for _ in 0..*k {
            let i = endpoints.len();
            let address = format!("10.0.{}.{}", i / 250, i % 250 + 1);
            let node = format!("node-{zone}");
            let on_node = (!zone.is_empty() && zone != "x").then_some(node.as_str());
            endpoints.push(endpoint(address, (!zone.is_empty()).then_some(zone.as_str()), on_node));
        }
    }
    snapshot(nodes, auto_service(), vec![slice("svc-1", endpoints)])
}

fn hints_written(s: &Snapshot) -> bool {
    let behaviour: Behaviour = "1.36".parse().unwrap();
    analyze::explain(s, &s.services[0], behaviour).families[0].action == ControllerAction::Write
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn replicas_needed_matches_the_engine(c in cluster()) {
        let today = build(&c, &c.today);
        let behaviour: Behaviour = "1.36".parse().unwrap();
        let report = analyze::explain(&today, &today.services[0], behaviour);
        let replicas = report.families[0].replicas.clone().expect("Auto mode has replicas");
        let reported: Vec<i64> = replicas.working.iter().flat_map(|r| r.from..=r.to).collect();

        let (weights, _) = spread_weights(&today.slices, &set_nodes(&today.nodes));
        let engine: Vec<i64> = (1..=100).filter(|&n| hints_written(&build(&c, &spread(&weights, n)))).collect();
        prop_assert_eq!(&reported, &engine, "weights {:?}", weights);

        let current: i64 = c.today.values().sum();
        let nearest = engine.iter().copied().find(|&n| n >= current.max(1));
        if current <= 100 && nearest.is_some() {
            prop_assert_eq!(replicas.nearest, nearest);
        }
        if replicas.beyond_limit {
            for n in [101, 137, 250] {
                prop_assert!(hints_written(&build(&c, &spread(&weights, n))), "n = {}", n);
            }
        }
    }
}
