//! What a `check` picture (`-o html|dot|mermaid`) draws beyond the rows: the full report of the
//! Services listed in the table's order (up to [`PICTURE_SECTIONS_CAP`], chosen worst verdicts
//! first), each computed when its picture is written (the snapshot moves into the [`CheckDetails`]
//! for that).

use std::rc::Rc;

use crate::render::picture::{CheckDetails, Reports};
use crate::settings::Settings;
use topo_engine::core::analyze::{self, Cluster};
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::{CheckReport, CheckRow, ServiceRef};

/// The most Services a `check` picture draws in full: beyond it the page (or graph) would grow past
/// what a browser opens comfortably (BENCHMARKS.md); the rows are all listed, with a note.
pub(crate) const PICTURE_SECTIONS_CAP: usize = 1000;

/// The full reports a `check` picture draws, in the order of its table (`--sort-by`): every row
/// listed, or beyond [`PICTURE_SECTIONS_CAP`] the worst verdicts (Drift, Blocked, …) first.
pub(super) fn details(
    settings: &Settings,
    snapshot: Snapshot,
    report: &CheckReport,
    behaviour: Behaviour,
) -> CheckDetails {
    let worst = |row: &CheckRow| row.families.iter().map(|f| f.verdict.severity()).max().unwrap_or(0);
    let mut chosen: Vec<usize> = (0..report.services.len()).collect();
    // A stable sort keeps the row order within a verdict; the rows chosen go back to table order.
    chosen.sort_by_key(|&i| std::cmp::Reverse(worst(&report.services[i])));
    chosen.truncate(PICTURE_SECTIONS_CAP);
    chosen.sort_unstable();
    let rows: Vec<&CheckRow> = chosen.into_iter().map(|i| &report.services[i]).collect();
    let by_name: std::collections::HashMap<(&str, &str), usize> = (snapshot.services.iter().enumerate())
        .map(|(i, s)| ((s.namespace.as_str(), s.name.as_str()), i))
        .collect();
    let (services, at): (Vec<ServiceRef>, Vec<usize>) = rows
        .iter()
        .filter_map(|row| {
            let i = by_name.get(&(row.service.namespace.as_str(), row.service.name.as_str()))?;
            Some((row.service.clone(), *i))
        })
        .unzip();
    drop(by_name);
    let zones = Some(analyze::zones(&snapshot, behaviour));
    let traffic = settings.traffic.clone();
    let reports: Reports = Rc::new(move |draw| {
        // As `analyze::service_reports_with`, one Service at a time: no per-node kube-proxy groups.
        let cluster = Cluster::without_proxy_groups(&snapshot, behaviour, &traffic);
        at.iter().try_for_each(|&i| draw(&analyze::service_report(&cluster, &snapshot.services[i])))
    });
    CheckDetails::new(services, reports, zones)
}
