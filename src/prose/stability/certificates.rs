//! The words of `explain`'s certificates: each workload behind an Auto Service certified over its
//! replica range and spread, or why that is unknown, in one line; and the load a close
//! trafficDistribution heuristic puts on each endpoint (docs/stability.md).

use std::collections::BTreeMap;

use topo_engine::model::ReadStatus;
use topo_engine::report::stability::load::{LoadCheck, LoadedEndpoint};
use topo_engine::report::stability::{CertificateUnknown, RangeSource, SpreadNote, WorkloadCertificate};

use super::{certificate_basis, certificate_summary, certificate_truncated};
use crate::escape::escape;

/// `Certificate of deployment/web over 2–9 replicas (hpa/web): Hints hold at every count …`.
pub(crate) fn workload_line(w: &WorkloadCertificate) -> String {
    let c = &w.certificate;
    let counts = if c.min == c.max { c.min.to_string() } else { format!("{}–{}", c.min, c.max) };
    let source = match &w.range {
        RangeSource::Autoscaler { name } => format!("hpa/{}", escape(name)),
        RangeSource::Replicas => "spec.replicas, no autoscaler".to_string(),
    };
    let kind = w.kind.to_string().to_ascii_lowercase();
    format!(
        "Certificate of {kind}/{} over {counts} replica(s) ({source}): {}",
        escape(&w.name),
        certificate_summary(c)
    )
}

/// What the certificate assumed: the zones and spread, the other endpoints held, what of the spread
/// is not modelled, and where the enumeration stopped.
pub(crate) fn workload_basis(w: &WorkloadCertificate) -> String {
    let mut line = certificate_basis(&w.certificate);
    if w.others > 0 {
        line.push_str(&format!(
            " The Service's {} other endpoint(s) (other workloads, or no controlled Pod) are held as they are.",
            w.others
        ));
    }
    for note in &w.spread_notes {
        line.push(' ');
        line.push_str(spread_note(*note));
    }
    if let Some(truncated) = certificate_truncated(&w.certificate) {
        line.push_str(&format!(" Note: {truncated}."));
    }
    line
}

/// A part of the spread the certificate does not model.
pub(crate) fn spread_note(note: SpreadNote) -> &'static str {
    match note {
        SpreadNote::OtherPods => "A zone constraint that selects other Pods, not these, is left out.",
        SpreadNote::SeveralZoneConstraints => {
            "Several zone constraints select these Pods: the hard one with the smallest maxSkew is modelled."
        }
        SpreadNote::TaintsHonored => {
            "nodeTaintsPolicy: Honor is not modelled (Node taints are not read): every zone with Ready workers counts."
        }
        SpreadNote::AffinityIgnored => {
            "nodeAffinityPolicy: Ignore is not modelled (the pod template's affinity is not read)."
        }
    }
}

/// Why there is no certificate, in one line.
pub(crate) fn unknown_line(unknown: &CertificateUnknown) -> String {
    match unknown {
        CertificateUnknown::WorkloadsNotRead { reads } => {
            // One clause per status: `pods, deployments not in the dump`.
            let mut by_status: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (object, status) in reads.iter().filter(|(_, s)| !matches!(s, ReadStatus::Read | ReadStatus::Absent)) {
                let status = crate::prose::partial::read_status(Some(*status));
                by_status.entry(status).or_default().push(crate::prose::workloads::object(*object));
            }
            let clauses: Vec<String> =
                by_status.iter().map(|(status, objects)| format!("{} {status}", objects.join(", "))).collect();
            let why = if clauses.is_empty() { String::new() } else { format!(" ({})", clauses.join("; ")) };
            format!(
                "Certificate: unknown: the workloads behind the Service were not read{why}, so their replica \
                 range and spread are not known; add them to the dump or grant list on them (deploy/rbac.yaml)."
            )
        }
        CertificateUnknown::NoWorkload => "Certificate: unknown: no Deployment, StatefulSet or ReplicaSet is \
             behind its endpoints to give a replica range (simulate --replicas MIN..MAX certifies one by hand)."
            .to_string(),
        CertificateUnknown::ReplicasUnknown { workloads } => {
            let names: Vec<String> = workloads.iter().map(|w| escape(w).into_owned()).collect();
            format!(
                "Certificate: unknown: the replicas of {} are unknown (its object was not read, or its kind \
                 has no replica count; simulate --replicas MIN..MAX certifies a range by hand).",
                names.join(", ")
            )
        }
    }
}

/// Endpoints listed by name in a load line; the rest are counted.
const LISTED: usize = 5;

/// `10.0.1.11 (zone a) 3.0×, 10.0.1.12 (zone a) 2.5× and 3 more`.
fn endpoints(list: &[LoadedEndpoint], with_load: bool) -> String {
    let shown: Vec<String> = (list.iter().take(LISTED))
        .map(|e| {
            let zone =
                if e.zone.is_empty() { "no zone".to_string() } else { format!("zone {}", escape(&e.zone)) };
            let load = if with_load { format!(" {:.1}×", e.load) } else { String::new() };
            format!("{} ({zone}){load}", escape(&e.address))
        })
        .collect();
    match list.len().saturating_sub(LISTED) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The load under a close heuristic in one line: the busiest endpoint, those over the factor,
/// those idle, and whose weights the callers have.
pub(crate) fn load_line(l: &LoadCheck) -> String {
    let callers = super::callers::callers(l);
    let mut line = format!(
        "Load after the next sync (no overload safeguard on this path upstream; {callers}): the busiest of {} ready endpoint(s) gets {}",
        l.ready_endpoints,
        l.max_load.map_or_else(|| "no request".to_string(), |m| format!("{m:.1}× an even share"))
    );
    if l.overloaded.is_empty() {
        line.push_str(&format!("; none over {:.0}×", l.factor));
    } else {
        line.push_str(&format!("; over {:.0}×: {}", l.factor, endpoints(&l.overloaded, true)));
    }
    if l.idle.is_empty() {
        line.push_str("; none idle.");
    } else {
        line.push_str(&format!("; no request at all: {}.", endpoints(&l.idle, false)));
    }
    if let Some(note) = super::callers::fallback_note(l) {
        line.push(' ');
        line.push_str(&note);
    }
    line
}
