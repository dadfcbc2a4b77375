//! `check`: every Service in scope through the engine, then `triage` (filters, hiding, ignore
//! rules, order, failures) and one of the renderers; exit 1 when a listed Service fails.

use std::collections::BTreeMap;
use std::io::Write;

use super::{behaviour, check_traffic, load, nothing_known, options, request, services_in_scope};
use crate::cli::FailOn;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render::{self, CheckContext};
use crate::settings::{ConfigPath, DumpPath, Settings, SourceSpec};
use crate::source::{self, SourceError};
use crate::triage::{self, IGNORE_ANNOTATION, View};
use topo_engine::core::analyze;
use topo_engine::report::{ServiceRef, Verdict};

/// Run `check`.
pub(super) fn run(
    settings: &Settings,
    fail_on: FailOn,
    view: &View,
    config: &ConfigPath,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    // The config file first: a mistake in it is found before a long read of the cluster.
    let rules = source::config::load(config).map_err(SourceError::from)?;
    let loaded = load(settings, request(settings, None, false), err)?;
    let snapshot = loaded.snapshot;
    let services = services_in_scope(settings, &snapshot, loaded.namespace.as_deref(), None);
    check_traffic(settings, &snapshot)?;
    let behaviour = behaviour(settings, &snapshot);
    let report = analyze::check_with(&snapshot, &services, behaviour, &settings.traffic, settings.workers);
    let verdicts: Vec<Verdict> =
        report.services.iter().flat_map(|row| row.families.iter().map(|f| f.verdict)).collect();
    let annotations: BTreeMap<ServiceRef, &str> = services
        .iter()
        .filter_map(|s| {
            let value = s.annotations.get(IGNORE_ANNOTATION)?;
            Some((ServiceRef { namespace: s.namespace.clone(), name: s.name.clone() }, value.as_str()))
        })
        .collect();
    let lookup = |s: &ServiceRef| annotations.get(s).copied();
    let triaged = triage::triage(report, &lookup, view, &rules, fail_on);
    for (service, unknown) in &triaged.unknown_codes {
        let _ = writeln!(err, "{}", crate::prose::check::unknown_codes_note(service, unknown));
    }
    let context = CheckContext { file: dump_file(&settings.source) };
    render::check(&triaged, &context, &options(settings), out).map_err(Error::Write)?;
    nothing_known(&verdicts)?;
    Ok(if triaged.failing.iter().any(|f| *f) { ExitStatus::Findings } else { ExitStatus::Ok })
}

/// The dump file read, as written on the command line (SARIF locates results in it).
fn dump_file(source: &SourceSpec) -> Option<String> {
    match source {
        SourceSpec::Dump(DumpPath::File(path)) => Some(path.display().to_string()),
        SourceSpec::Dump(DumpPath::Stdin) | SourceSpec::Live(_) => None,
    }
}
