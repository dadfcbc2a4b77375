//! One function per subcommand, wiring source → engine → render, and the exit code policy. The
//! version to model is the engine's choice (`core::version`); the notes about it are said here in
//! `prose`'s words.

use std::io::Write;

use crate::error::Error;
use crate::exit::ExitStatus;
use crate::progress::Progress;
use crate::render::{self, RenderOptions};
use crate::settings::changes::WhatIfError;
use crate::settings::{Job, Settings, SettingsError};
use crate::source::dump_write::{DumpFormat, DumpInput};
use crate::source::{self, DumpPath, ServiceNotFound, SourceError, SourceSpec};
use crate::version::VersionReport;
use topo_engine::core::analyze;
use topo_engine::core::version::{self, Chosen};
use topo_engine::model::{Service, Snapshot, SourceInfo};
use topo_engine::report::Verdict;

/// `kubectl topo` when invoked as a kubectl plugin (argv[0] `kubectl-…`), else the file name.
pub(crate) fn display_name(argv0: &str) -> String {
    let file = argv0.rsplit(['/', '\\']).next().unwrap_or(argv0);
    let file = file.strip_suffix(".exe").unwrap_or(file);
    match file.strip_prefix("kubectl-") {
        Some(plugin) if !plugin.is_empty() => format!("kubectl {}", plugin.replace('_', "-")),
        _ if file.is_empty() => "kubectl-topo".to_string(),
        _ => file.to_string(),
    }
}

/// Run the resolved job, writing data to `out` and notes to `err`. A write error is
/// [`Error::Write`]; `main` applies the output-error policy ([`Error::is_closed_pipe`]).
/// `--quiet` drops the `note:` lines of `err`; `-o name|jsonpath=…` print their extract of the
/// JSON document the job wrote.
pub(crate) fn run(
    settings: &Settings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let mut quiet = quiet::Quiet::new(err, settings.quiet);
    let status = match &settings.extract {
        None => job(settings, out, &mut quiet),
        Some(extract) => {
            let mut json = Vec::new();
            let computed = job(settings, &mut json, &mut quiet);
            // A report written before an error (nothing known, a failed cluster) is extracted too.
            match json.is_empty() {
                true => computed,
                false => crate::error::after_output(render::extract::write(extract, &json, out), computed),
            }
        }
    };
    let _ = quiet.flush();
    status
}

/// [`run`] of the job itself.
fn job(settings: &Settings, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus, Error> {
    match &settings.job {
        Job::Completion(shell) => {
            // Completions are for the executable itself (`kubectl-topo`); kubectl's plugin
            // completion goes through completions/kubectl_complete-topo instead.
            crate::completion::scripts::write(*shell, out).map_err(Error::Write)?;
            Ok(ExitStatus::Ok)
        }
        Job::Reasons(code) => {
            let options = options(settings);
            match code {
                Some(code) => render::reasons::page(*code, &options, out),
                None => render::reasons::list(&options, out),
            }
            .map_err(Error::Write)?;
            Ok(ExitStatus::Ok)
        }
        Job::Version { client } => version(settings, *client, out),
        Job::Zones => zones(settings, out, err),
        Job::Explain { names, behind, fail_on, config } => {
            explain::run(settings, names, behind.as_ref(), *fail_on, config, out, err)
        }
        Job::Check(job) => check::run(settings, job, out, err),
        Job::Dump { redact, format } => dump(settings, *redact, *format, out, err),
        Job::Simulate { name, changes } => simulate::run(settings, name, changes, out, err),
        Job::Certify { name, spec } => certify::run(settings, name, spec, out, err),
        Job::Apply(job) => apply::run(settings, job, out, err),
        Job::Watch { name } => watch::run(settings, name.as_deref(), out, err),
        Job::Serve(job) => crate::serve::run(settings, job, err),
    }
}

/// `version`: the plugin's line at once (flushed: the server may take up to the timeout), then
/// the server's; a configured server that does not answer is an error after the plugin's line.
/// `-o json|yaml` write one document, after the server answered or not. `--client` asks no server.
fn version(settings: &Settings, client: bool, out: &mut dyn Write) -> Result<ExitStatus, Error> {
    let structured = settings.output.structured().is_some();
    let plugin = VersionReport::new(None);
    if !structured {
        plugin.write(settings.output, out).and_then(|()| out.flush()).map_err(Error::Write)?;
    }
    let server = match &settings.source {
        SourceSpec::Live(_) if client => Ok(None),
        SourceSpec::Live(live) => source::probe::server_version(live),
        SourceSpec::Dump(_) => Ok(None),
    };
    let report = VersionReport::new(server.as_ref().ok().cloned().flatten());
    if structured {
        report.write(settings.output, out).map_err(Error::Write)?;
    } else {
        report.write_server(out).map_err(Error::Write)?;
    }
    server?;
    Ok(ExitStatus::Ok)
}

/// `source::load` behind a progress indicator (stderr, TTY only, after a moment). Notes from the
/// source are held back until the indicator has erased its line.
pub(crate) fn load(
    settings: &Settings,
    request: source::Request,
    err: &mut dyn Write,
) -> Result<source::Loaded, Error> {
    load_from(&settings.source, settings.progress, settings.unicode, request, err)
}

/// [`load`] of `spec` (one of `check`'s clusters), with a progress line when `progress`.
pub(crate) fn load_from(
    spec: &SourceSpec,
    progress: bool,
    unicode: bool,
    request: source::Request,
    err: &mut dyn Write,
) -> Result<source::Loaded, Error> {
    let message = match spec {
        SourceSpec::Live(_) => "listing Nodes, Services and EndpointSlices…".to_string(),
        SourceSpec::Dump(DumpPath::Stdin) => "reading stdin…".to_string(),
        SourceSpec::Dump(DumpPath::File(path)) => format!("reading {}…", path.display()),
    };
    let mut notes = Vec::new();
    let progress = Progress::start(progress, unicode, &message);
    let loaded = source::load(spec, request, &mut notes);
    drop(progress);
    let _ = err.write_all(&notes);
    Ok(loaded?)
}

pub(crate) fn options(settings: &Settings) -> RenderOptions {
    RenderOptions {
        format: settings.output,
        color: settings.color,
        no_headers: settings.no_headers,
        unicode: settings.unicode,
        width: settings.width,
    }
}

/// The version to model and why ([`version::choose`]), saying so in a `note:` on `err` when it
/// was not simply given.
pub(crate) fn modelled(
    settings: &Settings,
    snapshot: &Snapshot,
    err: &mut dyn Write,
) -> Result<Chosen, Error> {
    let chosen = version::choose(settings.behaviour, snapshot)?;
    for note in crate::prose::version::notes(&chosen, snapshot) {
        let _ = writeln!(err, "note: {note}");
    }
    Ok(chosen)
}

pub(crate) fn request<'a>(
    settings: &'a Settings,
    service: Option<&'a str>,
    nodes_only: bool,
) -> source::Request<'a> {
    source::Request { scope: &settings.scope, service, nodes_only, whole: false, workloads: false }
}

fn zones(settings: &Settings, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus, Error> {
    let snapshot = load(settings, request(settings, None, true), err)?.snapshot;
    if snapshot.info.nodes_unavailable {
        return Err(nodes_missing(&snapshot.info, false, "zone weights cannot be computed"));
    }
    let chosen = modelled(settings, &snapshot, err)?;
    let mut report = analyze::zones(&snapshot, chosen.behaviour);
    report.kubernetes_version_basis = Some(chosen.basis);
    render::zones(&report, &options(settings), out).map_err(Error::Write)?;
    Ok(ExitStatus::Ok)
}

/// `dump`: the raw objects of a live read as one YAML or JSON List (`--from-file` reads it back);
/// with `--redact`, only what the engine reads of the scope, from a live read or a dump.
fn dump(
    settings: &Settings,
    redact: bool,
    format: DumpFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    // A dump read back as it is: converted, narrowed to the namespace.
    if let (SourceSpec::Dump(path), false) = (&settings.source, redact) {
        let namespace = source::live::Namespace::from(&settings.scope).resolve("default");
        let value = source::dump_write::convert::read_narrowed(path, namespace.as_deref())?;
        let written = source::dump_write::write_converted(&value, format, out)?;
        written.map_err(Error::Write)?;
        return Ok(ExitStatus::Ok);
    }
    // Written back whole unless redacted (a redacted dump is written from the model).
    let request = source::Request { whole: !redact, workloads: true, ..request(settings, None, false) };
    let loaded = load(settings, request, err)?;
    let written = if redact {
        let mut snapshot = loaded.snapshot;
        // A live read fetched the scope only; a dump holds everything.
        if let Some(ns) = loaded.namespace.as_deref() {
            snapshot.services.retain(|s| s.namespace == ns);
            snapshot.slices.retain(|s| s.namespace == ns);
            snapshot.events.retain(|e| e.namespace == ns);
        }
        source::dump_write::write_dump(DumpInput::Redacted(&snapshot), format, out)
    } else {
        let raw = loaded.raw.unwrap_or_default();
        source::dump_write::write_dump(DumpInput::Raw(&raw), format, out)
    };
    written?.map_err(Error::Write)?;
    Ok(ExitStatus::Ok)
}

/// No more zones than modelled ([`analyze::MAX_ZONES`]), and `--traffic` may only name zones
/// that have nodes.
pub(crate) fn check_traffic(settings: &Settings, snapshot: &Snapshot) -> Result<(), Error> {
    analyze::zone_limit(snapshot, analyze::MAX_ZONES)?;
    match analyze::crosszone::unknown_zones(&settings.traffic, &snapshot.nodes).first() {
        Some(zone) => Err(SettingsError::from(WhatIfError::TrafficZone { zone: zone.clone() }).into()),
        None => Ok(()),
    }
}

/// Nodes were forbidden (or a dump recorded so), or a dump holds none (nor EndpointSlices, when
/// those are unknown too), and nothing useful can be said without them: exit 3 for the permission,
/// 2 for the dump that lacks them.
/// `slices`: whether the verdicts read EndpointSlices too (a dump without them is then named so).
fn nodes_missing(info: &SourceInfo, slices: bool, consequence: &'static str) -> Error {
    let not_dumped = source::incomplete::nodes_not_dumped(info);
    let missing = match (not_dumped, slices && info.slices_unavailable) {
        (true, true) => "Node and no EndpointSlice",
        (false, true) => "EndpointSlice",
        (true, false) => "Node",
        // A live read forbidden to list Nodes, or a dump that recorded one: said as that read did.
        (false, false) => {
            return SourceError::Missing { action: source::live::LIST_NODES, consequence }.into();
        }
    };
    let origin = info.origin.strip_prefix("dump:").unwrap_or(&info.origin).to_string();
    SourceError::DumpIncomplete { origin, missing, consequence }.into()
}

/// An error when every verdict asked for is Unknown (Nodes forbidden or not in the dump, all in
/// Auto mode; no EndpointSlice in the dump): the report is printed, but it answers nothing. Some
/// Unknown among known verdicts is a note, not an error.
pub(crate) fn nothing_known(verdicts: &[Verdict], info: &SourceInfo) -> Result<(), Error> {
    if !verdicts.is_empty() && verdicts.iter().all(|v| *v == Verdict::Unknown) {
        let dumped = source::incomplete::nodes_not_dumped(info) || info.slices_unavailable;
        let consequence = match dumped {
            false => crate::prose::partial::NO_VERDICT_WITHOUT_NODES,
            true => crate::prose::partial::NO_VERDICT_WITHOUT_DUMPED_KINDS,
        };
        return Err(nodes_missing(info, true, consequence));
    }
    Ok(())
}

/// The Services of `namespace` (every namespace for `None`) named `name` (any name for `None`) that
/// match `--selector`, in snapshot order: what `check` and `watch` report on.
pub(crate) fn services_in_scope<'a>(
    settings: &Settings,
    snapshot: &'a Snapshot,
    namespace: Option<&str>,
    name: Option<&str>,
) -> Vec<&'a Service> {
    snapshot
        .services
        .iter()
        .filter(|s| namespace.is_none_or(|ns| s.namespace == ns))
        .filter(|s| name.is_none_or(|n| s.name == n))
        .filter(|s| settings.selector.as_ref().is_none_or(|sel| sel.matches(&s.labels)))
        .collect()
}

/// The Service `name` in the namespace the source resolved (`default` when it resolved none); an
/// error naming the namespaces that do have it otherwise.
pub(crate) fn find_service<'a>(
    snapshot: &'a Snapshot,
    namespace: Option<&str>,
    name: &str,
) -> Result<&'a Service, Error> {
    let ns = namespace.unwrap_or("default");
    if let Some(s) = snapshot.services.iter().find(|s| s.namespace == ns && s.name == name) {
        return Ok(s);
    }
    let mut found_in: Vec<String> =
        snapshot.services.iter().filter(|s| s.name == name).map(|s| s.namespace.clone()).collect();
    found_in.sort();
    found_in.dedup();
    Err(SourceError::from(ServiceNotFound {
        namespace: ns.to_string(),
        name: name.to_string(),
        origin: snapshot.info.origin.clone(),
        found_in,
        near: nearest(name, snapshot.services.iter().filter(|s| s.namespace == ns).map(|s| s.name.as_str())),
    })
    .into())
}

/// The candidate closest to `name` by edit distance, when at most two edits away (a typo).
fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates.map(|c| (edit_distance(name, c), c)).filter(|(d, _)| *d <= 2).min().map(|(_, c)| c.to_string())
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

mod apply;
mod certify;
mod check;
mod explain;
mod front;
mod quiet;
mod simulate;
mod watch;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_name_from_argv0() {
        assert_eq!(display_name("/usr/local/bin/kubectl-topo"), "kubectl topo");
        assert_eq!(display_name("C:\\bin\\kubectl-topo.exe"), "kubectl topo");
        assert_eq!(display_name("./target/debug/topo"), "topo");
        assert_eq!(display_name(""), "kubectl-topo");
    }

    #[test]
    fn a_typo_finds_the_nearest_name_within_two_edits() {
        let names = ["demo-service", "demo-service-4", "demo-same-node"];
        assert_eq!(nearest("demo-servce", names.into_iter()).as_deref(), Some("demo-service"));
        assert_eq!(nearest("demo-srvice-4", names.into_iter()).as_deref(), Some("demo-service-4"));
        assert_eq!(nearest("payments", names.into_iter()), None);
        assert_eq!((edit_distance("", "ab"), edit_distance("kitten", "sitting")), (2, 3));
    }

    use crate::triage::FailOn;

    /// True when some verdict is at or above `level`. Unknown is never a finding.
    fn fails(level: FailOn, verdicts: &[Verdict]) -> bool {
        verdicts.iter().any(|v| crate::triage::verdict_fails(level, *v))
    }

    #[test]
    fn fail_on_levels_are_ordered() {
        use Verdict::*;
        assert!(!fails(FailOn::Drift, &[Active, Blocked, NotEnabled, Unmanaged]));
        assert!(fails(FailOn::Drift, &[Active, Drift]));
        assert!(fails(FailOn::Blocked, &[Blocked]));
        assert!(!fails(FailOn::Blocked, &[Unmanaged]));
        assert!(fails(FailOn::Any, &[Unmanaged]));
        assert!(!fails(FailOn::None, &[Drift]));
    }
}
