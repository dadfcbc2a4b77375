//! Formatting of reports to a writer it is given: tables and prose, or the structured envelope.
//! Renderers decide nothing; every choice arrives in [`RenderOptions`].

use std::io::Write;

use crate::cli::OutputFormat;
use crate::triage::Triaged;
use structured::Worded as _;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{ServiceReport, ZoneReport};

mod check;
pub mod clusters;
mod explain;
mod junit;
mod markdown;
mod sarif;
mod simulate;
pub mod structured;
pub mod style;
mod table;
pub mod watch;
mod whatif;
mod zones;

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// Format.
    pub format: OutputFormat,
    /// Colour (already resolved: off for json/yaml, NO_COLOR, pipes).
    pub color: bool,
    /// Omit table headers.
    pub no_headers: bool,
}

impl RenderOptions {
    fn wide(&self) -> bool {
        self.format == OutputFormat::Wide
    }
}

fn structured_format(format: OutputFormat) -> Option<structured::Structured> {
    match format {
        OutputFormat::Json => Some(structured::Structured::Json),
        OutputFormat::Yaml => Some(structured::Structured::Yaml),
        // The report formats are `check`'s alone (settings refuses them elsewhere).
        OutputFormat::Table
        | OutputFormat::Wide
        | OutputFormat::Markdown
        | OutputFormat::Junit
        | OutputFormat::Sarif => None,
    }
}

/// What `check`'s reports say about where the data came from.
#[derive(Debug, Clone, Default)]
pub struct CheckContext {
    /// The dump file read, as given (None for a live cluster or stdin).
    pub file: Option<String>,
}

fn dispatch<T: structured::Worded>(
    report: &T,
    options: &RenderOptions,
    out: &mut dyn Write,
    table: impl FnOnce(&T, &RenderOptions, &mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    match structured_format(options.format) {
        Some(format) => structured::write(&report.clone().worded(), format, out),
        None => table(report, options, out),
    }
}

/// Render `zones`.
pub fn zones(report: &ZoneReport, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    dispatch(report, options, out, zones::render)
}

/// Render `check` (the triaged report: rows listed, failures, summary counts).
pub fn check(
    triaged: &Triaged,
    context: &CheckContext,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format {
        OutputFormat::Json => {
            structured::write(&triaged.report.clone().worded(), structured::Structured::Json, out)
        }
        OutputFormat::Yaml => {
            structured::write(&triaged.report.clone().worded(), structured::Structured::Yaml, out)
        }
        OutputFormat::Table | OutputFormat::Wide => check::render(&triaged.report, options, out),
        OutputFormat::Markdown => markdown::render(triaged, out),
        OutputFormat::Junit => junit::render(triaged, out),
        OutputFormat::Sarif => sarif::render(triaged, context, out),
    }
}

/// Render `explain`.
pub fn explain(report: &ServiceReport, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    dispatch(report, options, out, explain::render)
}

/// Render `simulate`.
pub fn simulate(
    report: &SimulationReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    dispatch(report, options, out, simulate::render)
}
