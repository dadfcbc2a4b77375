//! `simulate`: one Service in a changed cluster, and what it and its certificate
//! (`simulate --replicas MIN..MAX`, `certify.rs`) load first.

use std::io::Write;

use super::{check_traffic, find_service, load, modelled, nodes_missing, options, request};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render;
use crate::settings::Settings;
use topo_engine::core::version::Chosen;
use topo_engine::core::whatif::{self, changes::Changes};
use topo_engine::model::Snapshot;

pub(super) fn run(
    settings: &Settings,
    name: &str,
    changes: &Changes,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let (snapshot, at, chosen) = simulated(settings, name, err)?;
    let service = &snapshot.services[at];
    let mut report = whatif::simulate(&snapshot, service, chosen.behaviour, changes, &settings.traffic)?;
    report.kubernetes_version_basis = Some(chosen.basis);
    render::simulate(&report, &options(settings), out).map_err(Error::Write)?;
    Ok(ExitStatus::Ok)
}

/// What `simulate` works on, for a change or a certificate: the snapshot (with its Nodes, within the
/// zone limit, `--traffic` naming only its zones), the Service's index in it, and the version chosen.
pub(crate) fn simulated(
    settings: &Settings,
    name: &str,
    err: &mut dyn Write,
) -> Result<(Snapshot, usize, Chosen), Error> {
    let loaded = load(settings, request(settings, Some(name), false), err)?;
    let snapshot = loaded.snapshot;
    let service = find_service(&snapshot, loaded.namespace.as_deref(), name)?;
    let at = snapshot.services.iter().position(|s| std::ptr::eq(s, service)).unwrap_or_default();
    if snapshot.info.nodes_unavailable {
        return Err(nodes_missing(&snapshot.info, false, crate::prose::partial::SIMULATE_NEEDS_NODES));
    }
    check_traffic(settings, &snapshot)?;
    let chosen = modelled(settings, &snapshot, err)?;
    Ok((snapshot, at, chosen))
}
