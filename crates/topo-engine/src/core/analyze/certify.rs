//! `check --certify`: the certificate of every Auto Service of a check report at once
//! (docs/stability.md#check). The workload join and the Node topology are built once for the
//! snapshot ([`WorkloadIndex`], `set_nodes`), so each Service costs what its own endpoints and
//! replica range cost, as `explain`'s certificate of that one Service does.

use std::collections::HashMap;

use super::workloads::WorkloadIndex;
use crate::core::stability::workload_certificates;
use crate::model::{Service, Snapshot};
use crate::report::ServiceRef;
use crate::report::check::CheckRow;

/// Fill in `certificates` of each row on the Auto path (some family has a margin), each row's
/// Service found among `services`; rows off the Auto path keep None, as `explain` shows none.
pub fn certify_rows(snapshot: &Snapshot, services: &[&Service], rows: &mut [CheckRow]) {
    let auto = |row: &CheckRow| row.families.iter().any(|f| f.fragile.is_some());
    if !rows.iter().any(auto) {
        return;
    }
    let index = WorkloadIndex::new(snapshot);
    let topology = crate::core::zones::set_nodes(&snapshot.nodes);
    let by_ref: HashMap<(&str, &str), &Service> =
        services.iter().map(|s| ((s.namespace.as_str(), s.name.as_str()), *s)).collect();
    for row in rows.iter_mut().filter(|r| auto(r)) {
        let ServiceRef { namespace, name } = &row.service;
        let Some(service) = by_ref.get(&(namespace.as_str(), name.as_str())) else { continue };
        let found = index.workloads(service);
        row.certificates = Some(Box::new(workload_certificates(&topology, &found)));
    }
}
