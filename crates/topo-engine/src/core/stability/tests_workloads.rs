//! The certificate fed from the workloads: the range and spread a workload gives, the other
//! endpoints held, and every unknown case; each count's answer against the port
//! (`set_nodes` + `get_allocations`) at the endpoint count it stands for.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::workloads::{workload_certificates, zone_spread};
use crate::core::testkit_tc::{NodeBuild, node};
use crate::core::topologycache::get_allocations;
use crate::core::zones::set_nodes;
use crate::model::{Autoscaler, Node, ReadStatus, SpreadConstraint, WorkloadKind, WorkloadObject};
use crate::report::stability::{CertificateUnknown, RangeSource, SpreadNote, SpreadRule};
use crate::report::workloads::{BackingWorkload, FoundBy, WorkloadsReport};

fn nodes(millis: &[i64]) -> Vec<Node> {
    let zones = ["a", "b", "c", "d"];
    millis
        .iter()
        .enumerate()
        .map(|(i, m)| node(&format!("n{i}")).zone(zones[i]).cpu_millis(*m).ready())
        .collect()
}

fn constraint(key: &str, skew: i32, hard: bool, own: bool) -> SpreadConstraint {
    SpreadConstraint {
        topology_key: key.to_string(),
        max_skew: skew,
        min_domains: None,
        when_unsatisfiable: if hard { "DoNotSchedule" } else { "ScheduleAnyway" }.to_string(),
        node_affinity_policy: None,
        node_taints_policy: None,
        selects_own_pods: own,
    }
}

const ZONE: &str = "topology.kubernetes.io/zone";

fn deployment(name: &str, replicas: i32, hpa: Option<(i32, i32)>, pods: Option<u32>) -> BackingWorkload {
    BackingWorkload {
        kind: WorkloadKind::Deployment,
        owner_kind: None,
        namespace: "w".into(),
        name: name.into(),
        read: true,
        replicas: Some(replicas),
        autoscaler: hpa.map(|(min, max)| Autoscaler { name: format!("{name}-hpa"), min, max }),
        spread: vec![constraint(ZONE, 1, true, true)],
        pods,
    }
}

fn found(workloads: Vec<BackingWorkload>, unowned: u32) -> WorkloadsReport {
    WorkloadsReport { found_by: FoundBy::Pods, workloads, unowned_endpoints: unowned, reads: BTreeMap::new() }
}

fn port_holds(nodes: &[Node], n: i64) -> bool {
    get_allocations(&set_nodes(nodes).ratios, n).is_ok()
}

/// Whether the certificate says count `n` holds (in every placement), fails, or neither.
fn says(c: &crate::report::stability::Certificate, n: i64) -> Option<bool> {
    if c.holds.iter().any(|r| r.from <= n && n <= r.to) {
        return Some(true);
    }
    c.exceptions.iter().find(|e| e.count == n).map(|e| {
        assert!(e.any_placement, "Step A reads only the count: {e:?}");
        false
    })
}

#[test]
fn an_hpa_gives_the_range_and_the_template_the_spread() {
    let cluster = nodes(&[4000, 4000, 4000]);
    let certs = workload_certificates(
        &set_nodes(&cluster),
        &found(vec![deployment("web", 4, Some((2, 12)), Some(4))], 0),
    );
    assert_eq!(certs.unknown, None);
    let [w] = certs.workloads.as_slice() else { panic!("one workload: {certs:?}") };
    assert_eq!(w.range, RangeSource::Autoscaler { name: "web-hpa".into() });
    assert_eq!((w.certificate.min, w.certificate.max, w.others), (2, 12, 0));
    assert_eq!(w.certificate.spread, Some(SpreadRule { max_skew: 1, min_domains: None, hard: true }));
    for n in 2..=12 {
        assert_eq!(says(&w.certificate, n), Some(port_holds(&cluster, n)), "count {n}");
    }
}

#[test]
fn without_an_hpa_the_replicas_are_the_one_count() {
    let cluster = nodes(&[4000, 4000, 4000]);
    let certs =
        workload_certificates(&set_nodes(&cluster), &found(vec![deployment("web", 11, None, Some(11))], 0));
    let w = &certs.workloads[0];
    assert_eq!((w.range.clone(), w.certificate.min, w.certificate.max), (RangeSource::Replicas, 11, 11));
    // k/k #122437: 11 replicas in three equal zones never get hints.
    assert_eq!(says(&w.certificate, 11), Some(false));
}

#[test]
fn nothing_read_no_workload_or_unknown_replicas_each_say_why() {
    let topology = set_nodes(&nodes(&[4000, 4000]));
    let reads = BTreeMap::from([(WorkloadObject::Pods, ReadStatus::NotInDump)]);
    let not_read =
        WorkloadsReport { found_by: FoundBy::Unknown, workloads: vec![], unowned_endpoints: 0, reads };
    assert!(matches!(
        workload_certificates(&topology, &not_read).unknown,
        Some(CertificateUnknown::WorkloadsNotRead { reads }) if reads[&WorkloadObject::Pods] == ReadStatus::NotInDump
    ));
    assert_eq!(
        workload_certificates(&topology, &found(vec![], 3)).unknown,
        Some(CertificateUnknown::NoWorkload)
    );
    let agent = BackingWorkload {
        kind: WorkloadKind::Other,
        owner_kind: Some("DaemonSet".into()),
        read: false,
        replicas: None,
        autoscaler: None,
        spread: vec![],
        ..deployment("agent", 0, None, Some(2))
    };
    assert_eq!(
        workload_certificates(&topology, &found(vec![agent], 0)).unknown,
        Some(CertificateUnknown::ReplicasUnknown { workloads: vec!["daemonset/agent".into()] })
    );
}

#[test]
fn spread_constraints_that_do_not_spread_these_pods_by_zone_are_left_out() {
    let host = constraint("kubernetes.io/hostname", 1, true, true);
    assert_eq!(zone_spread(std::slice::from_ref(&host)), (None, vec![]));
    let other = constraint(ZONE, 1, true, false);
    assert_eq!(zone_spread(&[other]), (None, vec![SpreadNote::OtherPods]));
    let soft = constraint(ZONE, 2, false, true);
    let hard = SpreadConstraint { min_domains: Some(3), ..constraint(ZONE, 3, true, true) };
    let (rule, notes) = zone_spread(&[soft.clone(), hard, host]);
    assert_eq!(rule, Some(SpreadRule { max_skew: 3, min_domains: Some(3), hard: true }));
    assert_eq!(notes, vec![SpreadNote::SeveralZoneConstraints]);
    let soft = SpreadConstraint { min_domains: Some(3), node_taints_policy: Some("Honor".into()), ..soft };
    let (rule, notes) = zone_spread(&[soft]);
    assert_eq!(
        rule,
        Some(SpreadRule { max_skew: 2, min_domains: None, hard: false }),
        "minDomains is DoNotSchedule's"
    );
    assert_eq!(notes, vec![SpreadNote::TaintsHonored]);
}

proptest! {
    /// Two workloads behind one Service: each certified with the other's Pods (and the endpoints
    /// without a controlled Pod) held, so count `n` of one stands for `n + others` endpoints.
    #[test]
    fn each_workload_counts_the_others_endpoints(
        millis in prop::collection::vec(500i64..9000, 2..=4),
        (min, span) in (0i32..8, 0i32..8),
        other in 0u32..6,
        unowned in 0u32..3,
    ) {
        let cluster = nodes(&millis);
        let web = deployment("web", min, Some((min, min + span)), Some(min as u32));
        let canary = deployment("canary", other as i32, None, Some(other));
        let certs = workload_certificates(&set_nodes(&cluster), &found(vec![web, canary], unowned));
        prop_assert_eq!(certs.workloads.len(), 2);
        let web = &certs.workloads[0];
        prop_assert_eq!(web.others, i64::from(other + unowned));
        for n in web.certificate.min..=web.certificate.max {
            prop_assert_eq!(says(&web.certificate, n), Some(port_holds(&cluster, n + web.others)), "count {}", n);
        }
        let canary = &certs.workloads[1];
        prop_assert_eq!(canary.others, i64::from(min as u32 + unowned));
        let n = i64::from(other);
        prop_assert_eq!(says(&canary.certificate, n), Some(port_holds(&cluster, n + canary.others)));
    }
}
