//! The picture formats: `-o html` (one self-contained page), `-o dot` (Graphviz) and `-o mermaid`
//! of the routing graph. They draw the engine's facts (`CrossZone`, per zone pair) and words from
//! `prose::picture`; untrusted strings go through [`escape`], one function per format.

pub mod dot;
pub mod escape;
pub mod graph;
pub mod html;
pub mod mermaid;

use std::io::Write;
use std::rc::Rc;

use graph::{Side, panels};
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{CheckReport, ServiceRef, ServiceReport, ZoneReport};

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

/// Draws the full reports of the Services a `check` picture shows, in order: calls its argument
/// with each report as it is computed, and stops at the first error it returns.
pub type Reports = Rc<dyn Fn(&mut dyn FnMut(&ServiceReport) -> std::io::Result<()>) -> std::io::Result<()>>;

/// What a `check` picture draws beyond the check rows. The full reports are computed one Service
/// at a time as its picture is written, and dropped before the next (issue 32: 40 Services of 500
/// zones held at once were 683 MB).
#[derive(Clone, Default)]
pub struct CheckDetails {
    /// The Services drawn in full, in the order of their sections (fewer than the rows under a
    /// size cap; rows without a report get no section).
    pub services: Vec<ServiceRef>,
    /// Their full reports, on demand.
    reports: Option<Reports>,
    /// The cluster's zones (nodes per zone).
    pub zones: Option<ZoneReport>,
}

impl std::fmt::Debug for CheckDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckDetails").field("services", &self.services).field("zones", &self.zones).finish()
    }
}

impl CheckDetails {
    /// The Services `services` drawn in full, their reports computed by `reports` as they are drawn.
    pub fn new(services: Vec<ServiceRef>, reports: Reports, zones: Option<ZoneReport>) -> Self {
        CheckDetails { services, reports: Some(reports), zones }
    }

    /// Reports computed already (tests, small inputs).
    pub fn of_reports(reports: Vec<ServiceReport>, zones: Option<ZoneReport>) -> Self {
        let services = reports.iter().map(|r| r.service.clone()).collect();
        let reports: Reports = Rc::new(move |draw| reports.iter().try_for_each(&mut *draw));
        CheckDetails::new(services, reports, zones)
    }

    /// `draw` each report in order with its index: one computed at a time, dropped once drawn.
    pub fn each(
        &self,
        mut draw: impl FnMut(usize, &ServiceReport) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let Some(reports) = &self.reports else { return Ok(()) };
        let mut i = 0;
        reports(&mut |report| {
            i += 1;
            draw(i - 1, report)
        })
    }
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

/// `check` as a picture: each Service's picture written as its report is computed.
pub fn check(
    report: &CheckReport,
    details: &CheckDetails,
    format: Picture,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let shown = details.services.len();
    let total = report.services.len();
    let note = (shown < total).then(|| crate::prose::picture::capped(shown, total));
    let mut panel = 0;
    match format {
        Picture::Html => html::check(report, details, out),
        Picture::Dot => {
            dot::begin(note.as_deref(), out)?;
            details.each(|_, r| {
                panels([r], None).iter().try_for_each(|p| dot::cluster(next(&mut panel), p, out))
            })?;
            dot::end(out)
        }
        Picture::Mermaid => {
            mermaid::begin(note.as_deref(), out)?;
            details.each(|_, r| {
                panels([r], None).iter().try_for_each(|p| mermaid::subgraph(next(&mut panel), p, out))
            })
        }
    }
}

/// The next panel's number.
fn next(counter: &mut usize) -> usize {
    *counter += 1;
    *counter - 1
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
