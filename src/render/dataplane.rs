//! `explain`'s "Data plane" section: each path of the Service's traffic, its version and where it
//! came from, its verdict (a reason code) and that verdict's sentence with the upstream file or PR
//! it rests on. Words from `prose::dataplane`.

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use super::table::table;
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose;
use crate::prose::dataplane as words;
use topo_engine::report::ServiceReport;
use topo_engine::report::dataplane::{DataPath, PathKind};
use topo_engine::report::reason::Reason;

/// The section; nothing when the report has no paths.
pub(super) fn section(
    report: &ServiceReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if report.data_plane.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{}", p.heading("Data plane"))?;
    let rows = report.data_plane.iter().map(row).collect();
    let headers = ["PATH", "TRAFFIC", "VERSION", "FROM", "VERDICT"];
    out.write_all(table(&headers, rows, o.no_headers).as_bytes())?;
    for path in &report.data_plane {
        let text = format!("{}: {} [{}]", path.verdict, escape(&sentence(path)), path.citation);
        paragraph(out, o.wrap(), "  ", "    ", &text)?;
    }
    Ok(())
}

fn row(path: &DataPath) -> Vec<String> {
    let from = match path.path {
        PathKind::Unknown => match path.facts.key.as_deref() {
            Some(ovn) if crate::prose::partial::status(Some(ovn)) == words::read_status(path.read) => {
                format!("cilium-config, ovnkube-node {}", words::read_status(path.read))
            }
            Some(ovn) => format!(
                "cilium-config {}, ovnkube-node {}",
                words::read_status(path.read),
                crate::prose::partial::status(Some(ovn))
            ),
            None => format!("cilium-config {}", words::read_status(path.read)),
        },
        PathKind::FrontDoorUnknown => {
            format!("{} {}", path.facts.key.as_deref().unwrap_or(""), words::read_status(path.read))
        }
        _ => words::version_source(path.version_source).to_string(),
    };
    vec![
        words::path(path.path).to_string(),
        words::traffic(path.traffic).to_string(),
        path.version.as_deref().map_or_else(|| "-".to_string(), |v| escape(v).into_owned()),
        from,
        path.verdict.to_string(),
    ]
}

/// The verdict's sentence, with the path's own facts.
fn sentence(path: &DataPath) -> String {
    prose::sentence(&Reason::with(path.verdict, path.facts.clone()))
}
