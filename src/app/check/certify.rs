//! `check --certify`: every Auto Service's certificate from the workloads read
//! (`core::analyze::certify_rows`), and the `note:` lines a whole run needs: the enumerations
//! that stopped at their limit, the workloads that were not read (an honest unknown).

use std::io::Write;

use topo_engine::core::analyze::certify_rows;
use topo_engine::model::{Service, Snapshot};
use topo_engine::report::CheckReport;
use topo_engine::report::stability::CertificateUnknown;

use crate::prose::stability::{not_read_note, truncated_note};

/// Certify the rows of `report`; notes on `err`.
pub(super) fn rows(
    snapshot: &Snapshot,
    services: &[&Service],
    report: &mut CheckReport,
    err: &mut dyn Write,
) {
    certify_rows(snapshot, services, &mut report.services);
    let certified = || report.services.iter().filter_map(|r| Some((&r.service, r.certificates.as_deref()?)));
    let truncated: Vec<_> =
        certified().filter(|(_, c)| c.workloads.iter().any(|w| w.certificate.truncated)).collect();
    if let Some((first, _)) = truncated.first() {
        let _ = writeln!(err, "note: {}", truncated_note(truncated.len(), first));
    }
    let not_read: Vec<&CertificateUnknown> = certified()
        .filter_map(|(_, c)| c.unknown.as_ref())
        .filter(|u| matches!(u, CertificateUnknown::WorkloadsNotRead { .. }))
        .collect();
    if let Some(first) = not_read.first() {
        let _ = writeln!(err, "note: {}", not_read_note(not_read.len(), first));
    }
}
