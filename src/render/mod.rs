//! Formatting of reports to a writer it is given: tables and prose, or the structured envelope.
//! Renderers decide nothing; every choice arrives in [`RenderOptions`].

use std::io::Write;

use crate::cli::OutputFormat;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{CheckReport, ServiceReport, ZoneReport};

mod check;
mod explain;
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
        OutputFormat::Table | OutputFormat::Wide => None,
    }
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

/// Render `check`.
pub fn check(report: &CheckReport, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    dispatch(report, options, out, check::render)
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
