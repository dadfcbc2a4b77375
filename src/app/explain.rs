//! `explain` over several Services (`explain svc/A svc/B`, `explain svc A B`).

use std::io::Write;

use super::{check_traffic, fails, find_service, load, modelled, nothing_known, options, request};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render;
use crate::settings::Settings;
use crate::triage::FailOn;
use topo_engine::core::analyze;
use topo_engine::report::Verdict;

/// `explain svc/A svc/B`: each Service in turn from one read, as kubectl prints several objects
/// (tables one after the other; `-o json|yaml`: one `ServiceReportList`); the worst exit code.
pub(super) fn several(
    settings: &Settings,
    names: &[String],
    fail_on: Option<FailOn>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let loaded = load(settings, request(settings, None, false), err)?;
    let snapshot = loaded.snapshot;
    let services = names
        .iter()
        .map(|name| find_service(&snapshot, loaded.namespace.as_deref(), name))
        .collect::<Result<Vec<_>, _>>()?;
    check_traffic(settings, &snapshot)?;
    let chosen = modelled(settings, &snapshot, err)?;
    let reports: Vec<_> = services
        .into_iter()
        .map(|service| {
            let mut report = analyze::explain_with(&snapshot, service, chosen.behaviour, &settings.traffic);
            report.kubernetes_version_basis = Some(chosen.basis.clone());
            report
        })
        .collect();
    let verdicts: Vec<Verdict> = reports.iter().flat_map(|r| r.families.iter().map(|f| f.verdict)).collect();
    let computed = nothing_known(&verdicts, &snapshot.info).map(|()| match fail_on {
        Some(level) if fails(level, &verdicts) => ExitStatus::Findings,
        _ => ExitStatus::Ok,
    });
    let written = render::explain_list(&reports, &options(settings), out);
    crate::error::after_output(written, computed)
}
