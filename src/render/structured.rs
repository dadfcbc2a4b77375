//! `-o json|yaml`: serde over the Report inside its versioned envelope; never the table.

use std::io::Write;

use topo_engine::report::apply::ApplyReport;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{CheckReport, Kind, ServiceReport, ZoneReport};

use crate::prose::{self, ReasonView};

/// Structured formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Structured {
    /// Pretty JSON.
    Json,
    /// YAML.
    Yaml,
}

/// A report as `-o json|yaml` shows it: every reason with its words ([`ReasonView`]).
pub(crate) trait Worded: Clone {
    /// The same report with worded reasons.
    type Output: Kind;
    /// Word every reason.
    fn worded(self) -> Self::Output;
}

impl Worded for topo_engine::report::stability::CertificateReport {
    type Output = Self;
    fn worded(self) -> Self {
        self
    }
}

macro_rules! worded {
    ($($report:ident),*) => {$(
        impl Worded for $report {
            type Output = $report<ReasonView>;
            fn worded(self) -> Self::Output {
                self.present(&prose::view)
            }
        }
    )*};
}
worded!(ServiceReport, CheckReport, ZoneReport, SimulationReport, ApplyReport);

/// Write `report` in its envelope.
pub(crate) fn write<T: Kind>(report: &T, format: Structured, out: &mut dyn Write) -> std::io::Result<()> {
    let envelope = report.envelope();
    match format {
        Structured::Json => {
            crate::escape::json::to_writer_pretty(&mut *out, &envelope)?;
            writeln!(out)
        }
        Structured::Yaml => {
            let text = crate::escape::yaml::to_string(&envelope).map_err(std::io::Error::other)?;
            out.write_all(text.as_bytes())
        }
    }
}
