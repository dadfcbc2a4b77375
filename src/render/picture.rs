//! The picture formats: `-o html` (one self-contained page), `-o dot` (Graphviz) and `-o mermaid`
//! of the routing graph. They draw the engine's facts (`CrossZone`, per zone pair) and words from
//! `prose::picture`; untrusted strings go through [`escape`], one function per format.

pub mod dot;
pub mod escape;
pub mod graph;
pub mod html;
pub mod mermaid;

use std::io::Write;

use graph::{Side, panels};
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{CheckReport, ServiceReport, ZoneReport};

/// The picture formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    /// `-o html`.
    Html,
    /// `-o dot`.
    Dot,
    /// `-o mermaid`.
    Mermaid,
}

/// What a `check` picture draws beyond the check rows.
#[derive(Debug, Clone, Default)]
pub struct CheckDetails {
    /// The full reports of some check rows, in the order their sections are drawn (fewer than the
    /// rows under a size cap; rows without a report get no section).
    pub reports: Vec<ServiceReport>,
    /// The cluster's zones (nodes per zone).
    pub zones: Option<ZoneReport>,
}

/// `explain` as a picture.
pub fn explain(
    report: &ServiceReport,
    zones: Option<&ZoneReport>,
    format: Picture,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match format {
        Picture::Html => html::explain(report, zones, out),
        Picture::Dot => dot::write(&panels([report], None), None, out),
        Picture::Mermaid => mermaid::write(&panels([report], None), None, out),
    }
}

/// `check` as a picture.
pub fn check(
    report: &CheckReport,
    details: &CheckDetails,
    format: Picture,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let shown = details.reports.len();
    let total = report.services.len();
    let note = (shown < total).then(|| crate::prose::picture::capped(shown, total));
    match format {
        Picture::Html => html::check(report, &details.reports, details.zones.as_ref(), out),
        Picture::Dot => dot::write(&panels(&details.reports, None), note.as_deref(), out),
        Picture::Mermaid => mermaid::write(&panels(&details.reports, None), note.as_deref(), out),
    }
}

/// `simulate` as a picture: before and after.
pub fn simulate(report: &SimulationReport, format: Picture, out: &mut dyn Write) -> std::io::Result<()> {
    let mut both = panels([&report.before], Some(Side::Before));
    both.extend(panels([&report.after], Some(Side::After)));
    match format {
        Picture::Html => html::simulate(report, out),
        Picture::Dot => dot::write(&both, None, out),
        Picture::Mermaid => mermaid::write(&both, None, out),
    }
}
