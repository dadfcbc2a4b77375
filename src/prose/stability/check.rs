//! The words of `check --certify`: the CERTIFICATE cell of a row (one short cell: table cells hold
//! no sentences), the line the CI formats give a certificate, and the `note:` lines about the
//! certificates of a whole run (docs/stability.md#check).

use topo_engine::report::CountRange;
use topo_engine::report::ServiceRef;
use topo_engine::report::stability::{Certificate, CertificateUnknown, WorkloadCertificates};

use super::{certificate_summary, unknown_line};
use crate::escape::escape;

/// Counts listed in a cell before `…`.
const CELL_COUNTS: usize = 3;

/// `holds 3–12`, `fails 4,11`, `fails 1–2,4 of 1–12`, `pending 7`, `unknown`; several workloads'
/// cells joined with `;`, a truncated enumeration marked `…`.
pub(crate) fn certificate_cell(c: &WorkloadCertificates) -> String {
    if c.workloads.is_empty() {
        return "unknown".to_string();
    }
    let cells: Vec<String> = c.workloads.iter().map(|w| one_cell(&w.certificate)).collect();
    cells.join(";")
}

fn one_cell(c: &Certificate) -> String {
    let more = if c.truncated { "…" } else { "" };
    let failing: Vec<i64> = c.exceptions.iter().map(|e| e.count).collect();
    if !failing.is_empty() {
        return format!("fails {}{more}", counts(&failing));
    }
    if !c.unschedulable.is_empty() {
        let pending: Vec<i64> = c.unschedulable.iter().flat_map(|r| r.from..=r.to).collect();
        return format!("pending {}{more}", counts(&pending));
    }
    match c.holds.as_slice() {
        [] => format!("unknown{more}"),
        ranges => format!("holds {}{more}", ranges.iter().map(range).collect::<Vec<_>>().join(",")),
    }
}

/// Counts folded into ranges, the first [`CELL_COUNTS`] ranges shown.
fn counts(values: &[i64]) -> String {
    let mut ranges: Vec<CountRange> = Vec::new();
    for &n in values {
        match ranges.last_mut() {
            Some(last) if last.to + 1 == n => last.to = n,
            _ => ranges.push(CountRange { from: n, to: n }),
        }
    }
    let shown: Vec<String> = ranges.iter().take(CELL_COUNTS).map(range).collect();
    let rest = if ranges.len() > CELL_COUNTS { ",…" } else { "" };
    format!("{}{rest}", shown.join(","))
}

fn range(r: &CountRange) -> String {
    if r.from == r.to { r.from.to_string() } else { format!("{}–{}", r.from, r.to) }
}

/// The certificates as sentences, one per workload (or why unknown), for the CI formats.
pub(crate) fn certificate_lines(c: &WorkloadCertificates) -> Vec<String> {
    if let Some(unknown) = &c.unknown {
        return vec![unknown_line(unknown)];
    }
    (c.workloads.iter())
        .map(|w| {
            let kind = w.kind.to_string().to_ascii_lowercase();
            format!("Certificate of {kind}/{}: {}", escape(&w.name), certificate_summary(&w.certificate))
        })
        .collect()
}

/// The `note:` when some enumeration stopped at its limit.
pub(crate) fn truncated_note(count: usize, first: &ServiceRef) -> String {
    format!(
        "the certificate of {count} Service(s) (first {}/{}) stopped at its limit of {} placements: \
         counts after the last examined are not certified (explain NAME shows where)",
        escape(&first.namespace),
        escape(&first.name),
        topo_engine::report::stability::PLACEMENT_LIMIT
    )
}

/// The `note:` when the workloads were not read: every certificate is unknown.
pub(crate) fn not_read_note(count: usize, unknown: &CertificateUnknown) -> String {
    let why = unknown_line(unknown);
    let why = why.strip_prefix("Certificate: unknown: ").unwrap_or(&why);
    format!("{count} Auto Service(s) have an unknown certificate: {why}")
}
