//! What a `check` picture (`-o html|dot|mermaid`) draws beyond the rows: the full report of the
//! Services listed, the worst verdicts first, up to [`PICTURE_SECTIONS_CAP`].

use crate::render::picture::CheckDetails;
use crate::settings::Settings;
use topo_engine::core::analyze;
use topo_engine::model::{Behaviour, Service, Snapshot};
use topo_engine::report::{CheckReport, CheckRow};

/// The most Services a `check` picture draws in full: beyond it the page (or graph) would grow past
/// what a browser opens comfortably (BENCHMARKS.md); the rows are all listed, with a note.
pub(crate) const PICTURE_SECTIONS_CAP: usize = 1000;

/// The full reports a `check` picture draws: up to [`PICTURE_SECTIONS_CAP`] of the rows listed, the
/// worst verdicts first (Drift, Blocked, …), in row order within a verdict.
pub(super) fn details(
    settings: &Settings,
    snapshot: &Snapshot,
    report: &CheckReport,
    behaviour: Behaviour,
) -> CheckDetails {
    let worst = |row: &CheckRow| row.families.iter().map(|f| f.verdict.severity()).max().unwrap_or(0);
    let mut rows: Vec<&CheckRow> = report.services.iter().collect();
    // A stable sort keeps the row order within a verdict.
    rows.sort_by_key(|row| std::cmp::Reverse(worst(row)));
    rows.truncate(PICTURE_SECTIONS_CAP);
    let by_name: std::collections::HashMap<(&str, &str), &Service> =
        snapshot.services.iter().map(|s| ((s.namespace.as_str(), s.name.as_str()), s)).collect();
    let services: Vec<&Service> = rows
        .iter()
        .filter_map(|row| by_name.get(&(row.service.namespace.as_str(), row.service.name.as_str())).copied())
        .collect();
    CheckDetails {
        reports: analyze::service_reports_with(
            snapshot,
            &services,
            behaviour,
            &settings.traffic,
            settings.workers,
        ),
        zones: Some(analyze::zones(snapshot, behaviour)),
    }
}
