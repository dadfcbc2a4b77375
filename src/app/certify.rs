//! `simulate --replicas MIN..MAX`: the stability certificate of one Service (docs/stability.md).

use std::io::Write;

use super::options;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render;
use crate::settings::{CertifySpec, Settings};
use topo_engine::core::stability::service_certificate;

/// Load, certify, render; a `note:` when the enumeration stopped at its limit.
pub(super) fn run(
    settings: &Settings,
    name: &str,
    spec: &CertifySpec,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let (snapshot, at, chosen) = super::simulate::simulated(settings, name, err)?;
    let service = &snapshot.services[at];
    let report = service_certificate(&snapshot, service, chosen.behaviour, (spec.min, spec.max, spec.spread));
    if let Some(note) = crate::prose::stability::certificate_truncated(&report.certificate) {
        let _ = writeln!(err, "note: {note}");
    }
    render::certificate(&report, &options(settings), out).map_err(Error::Write)?;
    Ok(ExitStatus::Ok)
}
