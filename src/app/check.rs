//! `check`: every Service in scope through the engine, then `triage` (filters, hiding, ignore
//! rules, order, failures) and one of the renderers; exit 1 when a listed Service fails. Over
//! several clusters (`-f` or `--context` repeated, a directory of dumps, `--all-contexts`) each is
//! read and analysed on its own thread (at most `workers` at once); a source that fails is an
//! error row and a `note:`, and the exit code is 1 when any cluster has a failing Service, else the
//! failed sources' code (3 when a cluster failed, 2 when only files did), else 0.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{check_traffic, load_from, modelled, nothing_known, options, request, services_in_scope};
use crate::error::{Error, after_output};
use crate::exit::ExitStatus;
use crate::render::clusters::ClusterCheck;
use crate::render::picture::CheckDetails;
use crate::render::{self, CheckContext, Format, FormatKind};
use crate::settings::{CheckJob, Settings, SettingsError};
use crate::source::targets::{Target, targets};
use crate::source::{DumpPath, SourceSpec};
use crate::triage::config;
use crate::triage::{self, FailOn, IGNORE_ANNOTATION, IgnoreRules, Triaged, View};
use topo_engine::core::analyze;
use topo_engine::report::{ServiceRef, Verdict};

/// What every cluster of one run is checked with.
struct Plan<'a> {
    fail_on: FailOn,
    view: &'a View,
    rules: &'a IgnoreRules,
    /// `--certify`: the workloads read and every Auto Service certified.
    certify: bool,
}

/// One cluster of a run: where it is read from, and how.
struct Cluster<'a> {
    source: &'a SourceSpec,
    /// A progress line on stderr (off when clusters run side by side).
    progress: bool,
    /// Threads that analyse its Services.
    workers: usize,
}

/// Run `check`.
pub(super) fn run(
    settings: &Settings,
    job: &CheckJob,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    // The config file first: a mistake in it is found before a long read of the cluster.
    let rules = config::load(&job.config)?;
    let plan = Plan { fail_on: job.fail_on, view: &job.view, rules: &rules, certify: job.certify };
    let mut targets = targets(&settings.sources, job.all_contexts);
    let as_list = listed(settings, job) && settings.output.structured().is_some();
    if targets.len() == 1 && !job.all_contexts && !as_list {
        let Target { spec, .. } = targets.remove(0);
        let source = spec?;
        let cluster = Cluster { source: &source, progress: settings.progress, workers: settings.workers };
        let (triaged, known, context) = one(settings, &cluster, &plan, err)?;
        let computed = known.map(|()| match triaged.failing.iter().any(|f| *f) {
            true => ExitStatus::Findings,
            false => ExitStatus::Ok,
        });
        let written = buffered(out, |w| render::check(&triaged, &context, &options(settings), w));
        return after_output(written, computed);
    }
    if let Some(format) = report_format(settings.output) {
        return Err(SettingsError::ReportOneSource(format).into());
    }
    many(settings, targets, &plan, out, err)
}

/// Whether `-o json|yaml` is a `CheckReportList` whatever the count of clusters found: asked for
/// (`--list`), or a shape of input that may hold several (`--all-contexts`, several sources, a
/// directory), so that a script reads one shape the day a second dump appears.
fn listed(settings: &Settings, job: &CheckJob) -> bool {
    let directory = |s: &SourceSpec| matches!(s, SourceSpec::Dump(DumpPath::File(p)) if p.is_dir());
    job.list || job.all_contexts || settings.sources.len() > 1 || settings.sources.iter().any(directory)
}

/// One cluster: read, analyse, triage; also whether any verdict before triage is known ("nothing
/// known" is an error after the report), and what the report says of the source (for a picture
/// format the full reports it draws, for SARIF the Services' lines in the dump).
fn one(
    settings: &Settings,
    cluster: &Cluster<'_>,
    plan: &Plan<'_>,
    err: &mut dyn Write,
) -> Result<(Triaged, Result<(), Error>, CheckContext), Error> {
    let request = crate::source::Request { workloads: plan.certify, ..request(settings, None, false) };
    let loaded = load_from(cluster.source, cluster.progress, settings.unicode, request, err)?;
    let snapshot = loaded.snapshot;
    let services = services_in_scope(settings, &snapshot, loaded.namespace.as_deref(), None);
    if services.is_empty() {
        let selector = settings.selector.is_some();
        let _ =
            writeln!(err, "{}", crate::prose::check::no_services_note(loaded.namespace.as_deref(), selector));
    }
    check_traffic(settings, &snapshot)?;
    let chosen = modelled(settings, &snapshot, err)?;
    let behaviour = chosen.behaviour;
    let mut report = analyze::check_with(&snapshot, &services, behaviour, &settings.traffic, cluster.workers);
    report.kubernetes_version_basis = Some(chosen.basis);
    if plan.certify {
        certify::rows(&snapshot, &services, &mut report, err);
    }
    let verdicts: Vec<Verdict> =
        report.services.iter().flat_map(|row| row.families.iter().map(|f| f.verdict)).collect();
    let known = nothing_known(&verdicts, &snapshot.info);
    let annotations: BTreeMap<ServiceRef, &str> = services
        .iter()
        .filter_map(|s| {
            let value = s.annotations.get(IGNORE_ANNOTATION)?;
            Some((service_ref(s), value.as_str()))
        })
        .collect();
    let lookup = |s: &ServiceRef| annotations.get(s).copied();
    let triaged = triage::triage(report, &lookup, plan.view, plan.rules, plan.fail_on);
    // Services there, none listed (hidden or filtered): say where we looked, as kubectl's "No
    // resources found in default namespace.", and how to look wider.
    if let (Some(namespace), false, true) =
        (loaded.namespace.as_deref(), services.is_empty(), triaged.report.services.is_empty())
    {
        let _ = writeln!(err, "{}", crate::prose::check::none_listed_note(namespace));
    }
    for (service, unknown) in &triaged.unknown_codes {
        let _ = writeln!(err, "{}", crate::prose::check::unknown_codes_note(service, unknown));
    }
    let lines = match settings.output {
        Format::Sarif => services.iter().filter_map(|s| Some((service_ref(s), s.line.0?))).collect(),
        _ => BTreeMap::new(),
    };
    let pictures = match settings.output.picture() {
        Some(_) => pictures::details(settings, snapshot, &triaged.report, behaviour),
        None => CheckDetails::default(),
    };
    Ok((triaged, known, CheckContext { file: dump_file(cluster.source), pictures, lines }))
}

/// One cluster checked, and its notes for stderr.
type Done = (ClusterCheck, Vec<u8>);

/// Several clusters, at most `settings.workers` read at once; results in the order given.
fn many(
    settings: &Settings,
    targets: Vec<Target>,
    plan: &Plan<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Done>>> = Mutex::new(targets.iter().map(|_| None).collect());
    let threads = settings.workers.clamp(1, targets.len().max(1));
    let targets: Vec<Mutex<Option<Target>>> = targets.into_iter().map(|t| Mutex::new(Some(t))).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(slot) = targets.get(index) else { break };
                    let target = slot.lock().expect("target lock").take().expect("each target is taken once");
                    let done = cluster(settings, target, plan);
                    results.lock().expect("results lock")[index] = Some(done);
                }
            });
        }
    });
    let clusters: Vec<Done> = results.into_inner().expect("results lock").into_iter().flatten().collect();
    let mut status = ExitStatus::Ok;
    for (cluster, notes) in &clusters {
        let _ = err.write_all(notes);
        match &cluster.outcome {
            Ok(t) if t.failing.iter().any(|f| *f) => status = ExitStatus::Findings,
            Ok(_) => {}
            Err((message, code)) => {
                // A table prints the error once, on the cluster's line under it; elsewhere, here.
                if settings.output.kind() != FormatKind::Table {
                    let _ = writeln!(err, "note: {}: {message}", cluster.cluster);
                }
                status = worse(status, *code);
            }
        }
    }
    let clusters: Vec<ClusterCheck> = clusters.into_iter().map(|(c, _)| c).collect();
    let written = buffered(out, |w| render::clusters::render(&clusters, &options(settings), w));
    after_output(written, Ok(status))
}

/// Rendered through a buffer: stdout flushes at every newline, and `-o json` is written a line at
/// a time (120,000 system calls for the large generated cluster). A failed write still fails.
fn buffered(
    out: &mut dyn Write,
    render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut buffer = std::io::BufWriter::with_capacity(1 << 16, out);
    render(&mut buffer)?;
    buffer.flush()
}

/// Findings (1) win; else a cluster error (3) beats an input error (2).
fn worse(status: ExitStatus, code: u8) -> ExitStatus {
    match (status, code) {
        (ExitStatus::Findings, _) => ExitStatus::Findings,
        (_, 3) | (ExitStatus::Cluster, _) => ExitStatus::Cluster,
        _ => ExitStatus::Usage,
    }
}

/// Read and check one cluster of several; its notes, each prefixed with the cluster.
fn cluster(settings: &Settings, target: Target, plan: &Plan<'_>) -> Done {
    let mut notes = Vec::new();
    let outcome = target.spec.map_err(Error::from).and_then(|source| {
        // Clusters run side by side: each analyses on one thread and shows no progress line.
        let cluster = Cluster { source: &source, progress: false, workers: 1 };
        one(settings, &cluster, plan, &mut notes).map(|(triaged, _, _)| triaged)
    });
    let text = String::from_utf8_lossy(&notes).into_owned();
    let prefixed: String = text
        .lines()
        .map(|l| match l.strip_prefix("note: ") {
            Some(rest) => format!("note: {}: {rest}\n", target.label),
            None => format!("{l}\n"),
        })
        .collect();
    let outcome = outcome.map_err(|e| (e.to_string(), e.exit_status().code()));
    (ClusterCheck { cluster: target.label, outcome }, prefixed.into_bytes())
}

/// The name of a report or picture format that reads one cluster only.
fn report_format(output: Format) -> Option<&'static str> {
    matches!(output.kind(), FormatKind::Picture | FormatKind::Report).then(|| output.name())
}

/// The dump file read, as written on the command line (SARIF locates results in it).
fn service_ref(service: &topo_engine::model::Service) -> ServiceRef {
    ServiceRef { namespace: service.namespace.clone(), name: service.name.clone() }
}

fn dump_file(source: &SourceSpec) -> Option<String> {
    match source {
        SourceSpec::Dump(DumpPath::File(path)) => Some(path.display().to_string()),
        SourceSpec::Dump(DumpPath::Stdin) | SourceSpec::Live(_) => None,
    }
}

mod certify;
mod pictures;
