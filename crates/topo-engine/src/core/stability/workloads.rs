//! The certificate fed from the workloads read (docs/stability.md#certificate-from-the-workloads):
//! for each workload behind a Service (`core::analyze::workloads`), its replica range — the
//! autoscaling/v2 HPA's `minReplicas..maxReplicas`, else its `spec.replicas` — and its pod
//! template's `topologySpreadConstraints` on the zone label, certified by [`certificate_with`]
//! over the zones with counted Nodes, the Service's other endpoints held as they are.
//!
//! Of a constraint's fields, `maxSkew`, `minDomains` (with `DoNotSchedule` only, as the scheduler
//! reads it) and `whenUnsatisfiable` are modelled. `nodeAffinityPolicy` and `nodeTaintsPolicy`
//! are not: the eligible zones are those with Ready worker Nodes, as under the defaults (`Honor`
//! with a template that has no node affinity, `Ignore`), and a constraint that sets either to the
//! other value gets a [`SpreadNote`]. A constraint whose `labelSelector` does not select the
//! workload's own Pods spreads other Pods and is left out.

use super::CpuState;
use super::certificate::{Scaling, certificate_with};
use crate::core::zones::NodeTopology;
use crate::model::{SpreadConstraint, WorkloadKind};
use crate::report::stability::{
    CertificateUnknown, RangeSource, SpreadNote, SpreadRule, WorkloadCertificate, WorkloadCertificates,
};
use crate::report::workloads::{BackingWorkload, FoundBy, WorkloadsReport};

/// The zone label the controller and the certificate's spread are about.
const ZONE_KEY: &str = "topology.kubernetes.io/zone";

/// Every certifiable workload of `found` on `topology` (today's Nodes and zone CPU).
pub fn workload_certificates(topology: &NodeTopology, found: &WorkloadsReport) -> WorkloadCertificates {
    let unknown = |u| WorkloadCertificates { workloads: Vec::new(), unknown: Some(u) };
    if found.found_by == FoundBy::Unknown {
        return unknown(CertificateUnknown::WorkloadsNotRead { reads: found.reads.clone() });
    }
    if found.workloads.is_empty() {
        return unknown(CertificateUnknown::NoWorkload);
    }
    let zones: Vec<String> = topology.counted_zones().map(|(z, _)| z.clone()).collect();
    let state = CpuState::of(topology).unwrap_or(CpuState { zones: Default::default(), total: 0 });
    let everyone: i64 = found.workloads.iter().map(current).sum::<i64>() + i64::from(found.unowned_endpoints);
    let workloads: Vec<WorkloadCertificate> =
        (found.workloads.iter()).filter_map(|w| certify(w, everyone - current(w), &zones, &state)).collect();
    if workloads.is_empty() {
        let names = found.workloads.iter().map(label).collect();
        return unknown(CertificateUnknown::ReplicasUnknown { workloads: names });
    }
    WorkloadCertificates { workloads, unknown: None }
}

/// One workload's certificate; None when its replicas are unknown (not read, or another kind).
fn certify(
    w: &BackingWorkload,
    others: i64,
    zones: &[String],
    state: &CpuState,
) -> Option<WorkloadCertificate> {
    let replicas = i64::from(w.replicas.filter(|_| w.read && w.kind != WorkloadKind::Other)?);
    let (min, max, range) = match &w.autoscaler {
        Some(a) => {
            let min = i64::from(a.min).max(0);
            (min, i64::from(a.max).max(min), RangeSource::Autoscaler { name: a.name.clone() })
        }
        None => (replicas.max(0), replicas.max(0), RangeSource::Replicas),
    };
    let (spread, spread_notes) = zone_spread(&w.spread);
    let input = Scaling { min, max, spread, zones: zones.to_vec() };
    Some(WorkloadCertificate {
        kind: w.kind,
        name: w.name.clone(),
        range,
        others,
        spread_notes,
        certificate: certificate_with(&input, state, others),
    })
}

/// Its endpoints today: its Pods behind the Service (found by Pods), else its replicas.
fn current(w: &BackingWorkload) -> i64 {
    w.pods.map(i64::from).or(w.replicas.map(i64::from)).unwrap_or(0)
}

/// `deployment/web`, `daemonset/agent`.
fn label(w: &BackingWorkload) -> String {
    let kind = match (&w.owner_kind, w.kind) {
        (Some(kind), WorkloadKind::Other) => kind.clone(),
        (_, kind) => kind.to_string(),
    };
    format!("{}/{}", kind.to_ascii_lowercase(), w.name)
}

/// The zone rule the scheduler applies to the workload's own Pods, and what is not modelled: of the
/// zone constraints that select its Pods, the hard one with the smallest `maxSkew` (a Pod must
/// satisfy every hard one), else the soft one (it only scores).
pub fn zone_spread(constraints: &[SpreadConstraint]) -> (Option<SpreadRule>, Vec<SpreadNote>) {
    let zone: Vec<&SpreadConstraint> = constraints.iter().filter(|c| c.topology_key == ZONE_KEY).collect();
    let mut notes = Vec::new();
    if zone.iter().any(|c| !c.selects_own_pods) {
        notes.push(SpreadNote::OtherPods);
    }
    let own: Vec<&SpreadConstraint> = zone.into_iter().filter(|c| c.selects_own_pods).collect();
    if own.len() > 1 {
        notes.push(SpreadNote::SeveralZoneConstraints);
    }
    if own.iter().any(|c| c.node_taints_policy.as_deref() == Some("Honor")) {
        notes.push(SpreadNote::TaintsHonored);
    }
    if own.iter().any(|c| c.node_affinity_policy.as_deref() == Some("Ignore")) {
        notes.push(SpreadNote::AffinityIgnored);
    }
    let hard = |c: &&&SpreadConstraint| c.when_unsatisfiable == "DoNotSchedule";
    let chosen = own.iter().filter(hard).min_by_key(|c| c.max_skew).or_else(|| own.first());
    let rule = chosen.map(|c| {
        let hard = c.when_unsatisfiable == "DoNotSchedule";
        SpreadRule {
            // The API server refuses maxSkew < 1.
            max_skew: i64::from(c.max_skew.max(1)),
            min_domains: c.min_domains.filter(|_| hard).map(i64::from),
            hard,
        }
    });
    (rule, notes)
}
