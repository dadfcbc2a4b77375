//! `simulate --apply FILE|DIR|- [SERVICE]` (docs/apply.md): rendered manifests laid over the
//! cluster, every Service they affect before → after with the certificate after the change; exit
//! 1 when the change brings a Service to `--fail-on` (one that was there already does not fail it:
//! the gate judges the change).

use std::io::Write;

use super::{check_traffic, load, modelled, nodes_missing, options, request};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render::{self, apply::ApplyContext};
use crate::settings::changes::WhatIfError;
use crate::settings::{ApplyJob, Settings, SettingsError};
use crate::source::{self, DumpPath, ServiceNotFound, SourceError};
use crate::triage::{FailOn, IgnoreRules, family_fails};
use topo_engine::core::whatif::apply::{ApplyScope, Manifests, apply};
use topo_engine::model::{ReadStatus, Snapshot, WorkloadObject};
use topo_engine::report::ServiceReport;
use topo_engine::report::apply::{ObjectChange, ServiceApply};

/// Read the cluster and the manifests, apply, judge, render.
pub(super) fn run(
    settings: &Settings,
    job: &ApplyJob,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    // The whole namespace: the manifests may touch any of its Services.
    let request = source::Request { workloads: true, ..request(settings, None, false) };
    let loaded = load(settings, request, err)?;
    let namespace = loaded.namespace.clone().unwrap_or_else(|| "default".to_string());
    let snapshot = loaded.snapshot;
    if snapshot.info.nodes_unavailable {
        return Err(nodes_missing(&snapshot.info, false, crate::prose::partial::SIMULATE_NEEDS_NODES));
    }
    let manifests = source::manifests::read(&job.manifests, &namespace, err)?;
    check_traffic(settings, &snapshot)?;
    let chosen = modelled(settings, &snapshot, err)?;
    if let Some(name) = &job.name {
        named(&snapshot, &manifests, &namespace, name)?;
    }
    if !workloads_read(&snapshot) && !manifests.workloads.is_empty() {
        let _ = writeln!(err, "note: {}", crate::prose::apply::workloads_unknown());
    }
    let scope = ApplyScope {
        namespace: Some(&namespace),
        service: job.name.as_deref(),
        node_changes: &job.node_changes,
        traffic: &settings.traffic,
    };
    let mut report = apply(&snapshot, &manifests, &scope, chosen.behaviour)?;
    report.kubernetes_version_basis = Some(chosen.basis);
    if report.services.is_empty() {
        let _ = writeln!(err, "note: {}", crate::prose::apply::nothing_affected(&namespace));
    }
    for s in &report.services {
        if let Some(note) = s.certificate.as_ref().and_then(crate::prose::stability::certificate_truncated) {
            let _ = writeln!(err, "note: {}/{}: {note}", s.service.namespace, s.service.name);
        }
    }
    let failing: Vec<bool> = report.services.iter().map(|s| newly_fails(s, job.fail_on)).collect();
    let status = if failing.iter().any(|f| *f) { ExitStatus::Findings } else { ExitStatus::Ok };
    if settings.output.picture().is_some() {
        let [one] = report.services.as_slice() else {
            let affected = report.services.len();
            return Err(SettingsError::from(WhatIfError::ApplyPicture {
                affected,
                format: picture_name(settings),
            })
            .into());
        };
        let written = render::simulate(&one.simulation, &options(settings), out);
        return crate::error::after_output(written, Ok(status));
    }
    let context = ApplyContext { failing, fail_on: job.fail_on, file: manifest_file(&job.manifests) };
    let written = render::apply::render(&report, &context, &options(settings), out);
    crate::error::after_output(written, Ok(status))
}

fn picture_name(settings: &Settings) -> &'static str {
    settings.output.name()
}

/// The Service asked for is in the cluster or the manifests.
fn named(snapshot: &Snapshot, manifests: &Manifests, namespace: &str, name: &str) -> Result<(), Error> {
    let here = |ns: &str, n: &str| ns == namespace && n == name;
    if snapshot.services.iter().any(|s| here(&s.namespace, &s.name))
        || manifests.services.iter().any(|s| here(&s.namespace, &s.name))
    {
        return Ok(());
    }
    Err(SourceError::from(ServiceNotFound {
        namespace: namespace.to_string(),
        name: name.to_string(),
        origin: snapshot.info.origin.clone(),
        found_in: Vec::new(),
        near: None,
    })
    .into())
}

/// Some workload kind was read from the cluster.
fn workloads_read(snapshot: &Snapshot) -> bool {
    [WorkloadObject::Deployments, WorkloadObject::StatefulSets]
        .into_iter()
        .any(|o| snapshot.workloads.status(o) == Some(ReadStatus::Read))
}

/// The first manifest file given, when it is a file (SARIF locates results in it).
fn manifest_file(paths: &[DumpPath]) -> Option<String> {
    match paths.first() {
        Some(DumpPath::File(p)) if !p.is_dir() => Some(p.display().to_string()),
        _ => None,
    }
}

/// The change brings the Service to `fail_on`: after it, a family fails (its verdict, or at
/// `fragile` its margin or a certificate exception over the autoscaler's range), and before it none
/// did (or the Service did not exist).
fn newly_fails(s: &ServiceApply, fail_on: FailOn) -> bool {
    let certificate_fragile =
        s.certificate.as_ref().is_some_and(|c| !c.exceptions.is_empty() || !c.unschedulable.is_empty());
    let after =
        side_fails(&s.simulation.after, fail_on) || (fail_on == FailOn::Fragile && certificate_fragile);
    let before = s.change != ObjectChange::Added && side_fails(&s.simulation.before, fail_on);
    after && !before
}

fn side_fails(report: &ServiceReport, fail_on: FailOn) -> bool {
    let rules = IgnoreRules::default();
    report.families.iter().any(|f| {
        family_fails(f.verdict, &f.reasons, false, &rules, fail_on)
            || (fail_on == FailOn::Fragile && f.stability.as_ref().is_some_and(|m| m.fragile))
    })
}
