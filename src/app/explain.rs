//! `explain`: one Service, or several (`explain svc/A svc/B`, `explain svc A B`) from one read.
//! The ignore rules apply as in `check` (the annotation, the config file): set-aside reasons are
//! shown as ignored and do not fail `--exit-code`.

use std::io::Write;

use super::{check_traffic, find_service, load, modelled, nothing_known, options, request};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render;
use crate::settings::{Behind, Settings};
use crate::triage::config::{self, ConfigPath};
use crate::triage::{FailOn, IGNORE_ANNOTATION, IgnoreRules};
use topo_engine::core::analyze::TrafficModel;
use topo_engine::core::{analyze, stability};
use topo_engine::model::{Behaviour, Service, Snapshot};
use topo_engine::report::{ServiceReport, Verdict};

/// `explain`: each Service in turn from one read, as kubectl prints several objects (tables one
/// after the other; `-o json|yaml`: one `ServiceReportList` for several); the worst exit code.
pub(super) fn run(
    settings: &Settings,
    names: &[String],
    behind: Option<&Behind>,
    fail_on: Option<FailOn>,
    config: &ConfigPath,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    // The config file first: a mistake in it is found before a long read of the cluster.
    let rules = config::load(config)?;
    let one = match names {
        [name] => Some(name.as_str()),
        _ => None,
    };
    let request = crate::source::Request { workloads: true, ..request(settings, one, false) };
    let loaded = load(settings, request, err)?;
    let snapshot = loaded.snapshot;
    let services = match behind {
        Some(behind) => {
            let namespace = loaded.namespace.as_deref().unwrap_or("default");
            super::front::services_in_front(&snapshot, namespace, behind)?
        }
        None => names
            .iter()
            .map(|name| find_service(&snapshot, loaded.namespace.as_deref(), name))
            .collect::<Result<Vec<_>, _>>()?,
    };
    check_traffic(settings, &snapshot)?;
    let chosen = modelled(settings, &snapshot, err)?;
    let reports: Vec<ServiceReport> = services
        .into_iter()
        .map(|service| {
            let mut report = with_workloads(&snapshot, service, chosen.behaviour, &settings.traffic);
            report.kubernetes_version_basis = Some(chosen.basis.clone());
            let annotation = service.annotations.get(IGNORE_ANNOTATION).map(String::as_str);
            let unknown = crate::triage::explain::set_aside(&mut report, annotation, &rules);
            if !unknown.is_empty() {
                let _ =
                    writeln!(err, "{}", crate::prose::check::unknown_codes_note(&report.service, &unknown));
            }
            report
        })
        .collect();
    let verdicts: Vec<Verdict> = reports.iter().flat_map(|r| r.families.iter().map(|f| f.verdict)).collect();
    let computed = nothing_known(&verdicts, &snapshot.info).map(|()| match fail_on {
        Some(level) if failing(&reports, &rules, level) => ExitStatus::Findings,
        _ => ExitStatus::Ok,
    });
    let written = match reports.as_slice() {
        [report] => {
            let zones = settings.output.picture().map(|_| analyze::zones(&snapshot, chosen.behaviour));
            render::explain_with(report, zones.as_ref(), &options(settings), out)
        }
        several => render::explain_list(several, &options(settings), out),
    };
    crate::error::after_output(written, computed)
}

/// The report of one Service with what the workloads add: an Auto Service's certificate (or why it
/// is unknown: no workloads read, an old dump), and the Workloads section when the read looked for
/// them (live `explain`, a dump holding some).
fn with_workloads(
    snapshot: &Snapshot,
    service: &Service,
    behaviour: Behaviour,
    traffic: &TrafficModel,
) -> ServiceReport {
    let mut report = analyze::explain_with(snapshot, service, behaviour, traffic);
    let found = analyze::workloads(snapshot, service);
    report.certificates = stability::explain_certificates(snapshot, &report, &found);
    if snapshot.workloads.looked_for() {
        report.workloads = Some(found);
    }
    report
}

fn failing(reports: &[ServiceReport], rules: &IgnoreRules, level: FailOn) -> bool {
    reports.iter().any(|r| crate::triage::explain::fails(r, rules, level))
}
