//! `check` over several clusters: a CLUSTER column in tables (a failed source is an `Error` row
//! with its message), one summary line per cluster, and for `-o json|yaml` a `CheckReportList`
//! whose items are each cluster's `CheckReport` (the single-cluster shape) or its error.

use std::io::Write;

use serde::Serialize;
use topo_engine::report::{CheckReport, Kind};

use super::RenderOptions;
use super::check::{CERTIFICATE, cells, certificate_cell, certified, headers};
use super::structured::{self, Worded as _};
use super::style::Palette;
use super::table::table;
use crate::escape::escape;
use crate::prose::ReasonView;
use crate::triage::Triaged;

/// One cluster's outcome, as the renderers take it.
#[derive(Debug)]
pub(crate) struct ClusterCheck {
    /// The dump file or context.
    pub(crate) cluster: String,
    /// The triaged report, or the error's one line and exit code.
    pub(crate) outcome: Result<Triaged, (String, u8)>,
}

/// `-o json|yaml` of a check over several clusters.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct CheckReportList {
    /// One item per cluster, in the order the sources were given.
    pub(crate) items: Vec<ClusterItem>,
}

/// One cluster of a [`CheckReportList`]: its report, or why it could not be read.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterItem {
    /// The dump file as given, or the kubeconfig context.
    pub(crate) cluster: String,
    /// The report (absent when the source failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) report: Option<CheckReport<ReasonView>>,
    /// The error (absent when the source was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<ClusterError>,
}

/// A source that failed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterError {
    /// The one-line error, as `error:` would print it.
    pub(crate) message: String,
    /// The exit code this error alone would give (2 input, 3 cluster).
    pub(crate) exit_code: u8,
}

impl Kind for CheckReportList {
    const KIND: &'static str = "CheckReportList";
}

/// Render every cluster (table, wide, json, yaml; `check` refuses the report and picture formats
/// over several clusters).
pub(crate) fn render(
    clusters: &[ClusterCheck],
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format.structured() {
        Some(format) => structured::write(&list(clusters), format, out),
        None => tables(clusters, options, out),
    }
}

fn list(clusters: &[ClusterCheck]) -> CheckReportList {
    let items = clusters
        .iter()
        .map(|c| match &c.outcome {
            Ok(t) => ClusterItem {
                cluster: c.cluster.clone(),
                report: Some(t.report.clone().worded()),
                error: None,
            },
            Err((message, exit_code)) => ClusterItem {
                cluster: c.cluster.clone(),
                report: None,
                error: Some(ClusterError { message: message.clone(), exit_code: *exit_code }),
            },
        })
        .collect();
    CheckReportList { items }
}

fn tables(clusters: &[ClusterCheck], options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let palette = Palette::new(options.color);
    let wide = options.wide();
    let certified = clusters.iter().any(|c| c.outcome.as_ref().is_ok_and(|t| certified(&t.report.services)));
    let mut rows = Vec::new();
    for cluster in clusters {
        let name = escape(&cluster.cluster).into_owned();
        match &cluster.outcome {
            Ok(t) => rows.extend(t.report.services.iter().map(|row| {
                let mut cells = cells(row, wide, &palette);
                cells.insert(0, name.clone());
                if certified {
                    cells.push(certificate_cell(row));
                }
                cells
            })),
            Err((message, _)) => {
                let mut cells = vec![name.clone(), "-".into(), "-".into(), "-".into(), "Error".into()];
                // The whole message is on the cluster's summary line below (not cut mid-word);
                // `-o wide` and `--no-headers`, which has no summary lines, show it here.
                cells.push(if wide || options.no_headers {
                    escape(message).into_owned()
                } else {
                    crate::prose::check::CLUSTER_ERROR_CELL.to_string()
                });
                cells.extend(["-".to_string(), "-".to_string()]);
                if wide {
                    cells.push("-".into());
                }
                if certified {
                    // CERTIFICATE is last: the columns before it filled first.
                    cells.resize(headers(wide).len() + 2, "-".into());
                }
                rows.push(cells);
            }
        }
    }
    let mut headers = headers(wide);
    headers.insert(0, "CLUSTER");
    if certified {
        headers.push(CERTIFICATE);
    }
    out.write_all(table(&headers, rows, options.no_headers).as_bytes())?;
    if !options.no_headers {
        writeln!(out)?;
        for cluster in clusters {
            let name = escape(&cluster.cluster);
            match &cluster.outcome {
                Ok(t) => writeln!(out, "{name}: {}", crate::prose::check::summary_line(&t.report.summary))?,
                Err((message, _)) => writeln!(out, "{name}: error: {}", escape(message))?,
            }
        }
    }
    Ok(())
}
