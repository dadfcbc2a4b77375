//! `check` as one row per Service and a summary line; REPLICAS is the nearest ready-endpoint count
//! at which a Blocked Auto Service gets hints, CROSS-ZONE the share of requests leaving their zone
//! today (with the hints on the slices now), and `-o wide`'s AFTER-SYNC the share with the hints
//! after the controller's next sync; `check --certify` adds CERTIFICATE, whether each Auto Service's
//! hints hold over its replica range and spread (docs/stability.md#check).

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use super::table::table;
use crate::escape::escape;
use topo_engine::report::CheckReport;
use topo_engine::report::check::{CheckFamily, CheckRow};
use topo_engine::report::reason::ReasonCode;

/// Rows sorted as in the report, then the summary.
pub(crate) fn render(
    report: &CheckReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let palette = Palette::new(options.color);
    let wide = options.wide();
    let certified = certified(&report.services);
    let rows = (report.services.iter())
        .map(|row| {
            let mut cells = cells(row, wide, &palette);
            if certified {
                cells.push(certificate_cell(row));
            }
            cells
        })
        .collect();
    let mut headers = headers(wide);
    if certified {
        headers.push(CERTIFICATE);
    }
    out.write_all(table(&headers, rows, options.no_headers).as_bytes())?;
    if !options.no_headers {
        writeln!(out, "\n{}", crate::prose::check::summary_line(&report.summary))?;
        for note in &report.partial {
            writeln!(out, "Partial data: {}", escape(note))?;
        }
    }
    Ok(())
}

/// The columns (`-o wide` adds AFTER-SYNC, MARGIN and FAMILIES).
pub(super) fn headers(wide: bool) -> Vec<&'static str> {
    let mut headers = vec!["NAMESPACE", "NAME", "MODE", "VERDICT", "REASON", "REPLICAS", "CROSS-ZONE"];
    if wide {
        headers.extend(["AFTER-SYNC", "MARGIN", "FAMILIES"]);
    }
    headers
}

/// One row of the table.
pub(super) fn cells(row: &CheckRow, wide: bool, palette: &Palette) -> Vec<String> {
    let single = row.families.len() == 1;
    let verdicts: Vec<String> = row
        .families
        .iter()
        .map(|f| {
            let text =
                if single { f.verdict.to_string() } else { format!("{}:{}", f.address_type, f.verdict) };
            palette.verdict(f.verdict, &text)
        })
        .collect();
    let reasons: Vec<String> = row
        .families
        .iter()
        .flat_map(|f| f.reasons.iter().take(if wide { usize::MAX } else { shown(f) }))
        .map(|r| r.code.to_string())
        .collect();
    let ignored: Vec<String> =
        row.families.iter().flat_map(|f| &f.ignored).map(|r| format!("ignored:{}", r.code)).collect();
    let reasons: Vec<String> = dedup(reasons).into_iter().chain(dedup(ignored)).collect();
    let mut cells = vec![
        escape(&row.service.namespace).into_owned(),
        escape(&row.service.name).into_owned(),
        row.mode.to_string(),
        verdicts.join(" "),
        if reasons.is_empty() { "-".into() } else { reasons.join(",") },
        joined(row.families.iter().map(|f| f.replicas_needed.map(|n| n.to_string()))),
        joined(row.families.iter().map(|f| f.cross_zone_now.map(percent))),
    ];
    if wide {
        cells.push(joined(row.families.iter().map(|f| f.cross_zone_after_sync.map(percent))));
        cells.push(joined(
            row.families.iter().map(|f| crate::prose::check::margin_cell(f.margin_points, f.fragile)),
        ));
        cells.push(row.families.iter().map(|f| f.address_type.as_str()).collect::<Vec<_>>().join(","));
    }
    cells
}

/// The column `check --certify` adds, last.
pub(super) const CERTIFICATE: &str = "CERTIFICATE";

/// Some row carries a certificate (`check --certify` found an Auto Service): the column is shown.
pub(super) fn certified(rows: &[CheckRow]) -> bool {
    rows.iter().any(|r| r.certificates.is_some())
}

/// The CERTIFICATE cell: `holds 3–12`, `fails 4,11`, `unknown`; `-` off the Auto path.
pub(super) fn certificate_cell(row: &CheckRow) -> String {
    row.certificates.as_deref().map_or_else(|| "-".into(), crate::prose::stability::certificate_cell)
}

/// Without -o wide: the first reason, and when that is only the diff (hints missing, unexpected,
/// invalid) also the reason behind it, e.g. `HintsUnexpected,EndpointMissingZone` (W6).
fn shown(family: &CheckFamily) -> usize {
    let diff = |code: ReasonCode| {
        matches!(code, ReasonCode::HintsMissing | ReasonCode::HintsUnexpected | ReasonCode::HintsInvalid)
    };
    1 + family.reasons.iter().take_while(|r| diff(r.code)).count()
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// One value per family joined with `/`, or `-` when no family has one.
fn joined(values: impl Iterator<Item = Option<String>>) -> String {
    let values: Vec<Option<String>> = values.collect();
    if values.iter().all(Option::is_none) {
        return "-".into();
    }
    values.into_iter().map(|v| v.unwrap_or_else(|| "-".into())).collect::<Vec<_>>().join("/")
}

fn dedup(mut items: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    items.retain(|i| seen.insert(i.clone()));
    items
}
