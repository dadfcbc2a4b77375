//! Formatting of reports to a writer it is given: tables and prose, or the structured envelope.
//! Renderers decide nothing; every choice arrives in [`RenderOptions`].

use std::io::Write;

use crate::triage::Triaged;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{CheckReport, ServiceReport, ZoneReport};

pub(crate) mod apply;
pub(crate) mod ascii;
mod bar;
mod check;
pub(crate) mod clusters;
mod dataplane;
pub(crate) mod explain;
pub(crate) mod extract;
mod format;
mod junit;
mod markdown;
pub mod picture;
pub mod reasons;
mod sarif;
mod simulate;
mod stability;
pub(crate) mod structured;
pub(crate) mod style;
mod table;
pub mod watch;
mod whatif;
mod workloads;
pub(crate) mod wrap;
mod zones;

pub use format::{Format, FormatKind};

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// Format.
    pub format: Format,
    /// Colour (already resolved: off for json/yaml, NO_COLOR, pipes).
    pub color: bool,
    /// Omit table headers.
    pub no_headers: bool,
    /// The terminal takes UTF-8 (block characters); otherwise ASCII.
    pub unicode: bool,
    /// Width prose wraps at (`COLUMNS`, else the terminal's); None: one line per paragraph.
    pub width: Option<usize>,
}

impl RenderOptions {
    fn wide(&self) -> bool {
        self.format == Format::Wide
    }

    /// How prose is laid out.
    fn wrap(&self) -> wrap::Wrap {
        wrap::Wrap { width: self.width, unicode: self.unicode }
    }
}

/// What `check`'s reports say about where the data came from.
#[derive(Debug, Clone, Default)]
pub struct CheckContext {
    /// The dump file read, as given (None for a live cluster or stdin).
    pub file: Option<String>,
    /// The full reports a picture format draws per Service (empty for the other formats).
    pub pictures: picture::CheckDetails,
    /// The line of each Service in the dump file, where the reader knew it (`-o sarif` only).
    pub lines: std::collections::BTreeMap<topo_engine::report::ServiceRef, std::num::NonZeroU32>,
}

fn dispatch<T: structured::Worded>(
    report: &T,
    options: &RenderOptions,
    out: &mut dyn Write,
    table: impl FnOnce(&T, &RenderOptions, &mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    match options.format.structured() {
        Some(format) => structured::write(&report.clone().worded(), format, out),
        None => table(report, options, out),
    }
}

/// Render `simulate --replicas MIN..MAX` (tables and `-o json|yaml`; pictures draw nothing more).
pub fn certificate(
    report: &topo_engine::report::stability::CertificateReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    dispatch(report, options, out, |r, o, w| stability::certificate_report(r, o, w))
}

/// Render `zones`.
pub fn zones(report: &ZoneReport, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    dispatch(report, options, out, zones::render)
}

/// Render `check` (the triaged report: rows listed, failures, summary counts; a picture draws the
/// Services of `context.pictures`).
pub fn check(
    triaged: &Triaged,
    context: &CheckContext,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let (report, drawn) = (&triaged.report, &context.pictures);
    if let Some(format) = options.format.picture() {
        return picture::check(report, drawn, format, out);
    }
    match options.format {
        Format::Markdown => markdown::render(triaged, out),
        Format::Junit => junit::render(triaged, out),
        Format::Sarif => sarif::render(triaged, context, out),
        _ => dispatch(report, options, out, check::render),
    }
}

/// Render `check` of `report` as a picture (any other format as [`check`] renders a report), the
/// Services of `details` drawn in full.
pub fn check_pictures(
    report: &CheckReport,
    details: &picture::CheckDetails,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format.picture() {
        Some(format) => picture::check(report, details, format, out),
        None => dispatch(report, options, out, check::render),
    }
}

/// Render `explain`; `zones` gives the picture formats the nodes per zone.
pub fn explain_with(
    report: &ServiceReport,
    zones: Option<&ZoneReport>,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format.picture() {
        Some(format) => picture::explain(report, zones, format, out),
        None => dispatch(report, options, out, explain::render),
    }
}

/// Render several `explain` reports: tables one after the other (a blank line between), or one
/// `ServiceReportList` for `-o json|yaml` (settings refuses the pictures for several).
pub(crate) fn explain_list(
    reports: &[ServiceReport],
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if let Some(format) = options.format.structured() {
        let items = reports.iter().map(|r| structured::Worded::worded(r.clone())).collect();
        return structured::write(&explain::ServiceReportList { items }, format, out);
    }
    for (at, report) in reports.iter().enumerate() {
        if at > 0 {
            writeln!(out)?;
        }
        explain::render(report, options, out)?;
    }
    Ok(())
}

/// Render `explain`.
pub fn explain(report: &ServiceReport, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    explain_with(report, None, options, out)
}

/// Render `simulate`.
pub fn simulate(
    report: &SimulationReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format.picture() {
        Some(format) => picture::simulate(report, format, out),
        None => dispatch(report, options, out, simulate::render),
    }
}
