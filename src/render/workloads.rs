//! `explain`'s "Workloads" section: the workloads behind the Service (kind/name, replicas, the
//! autoscaler's range, the spread of their pods), how they were found, and which reads were
//! unavailable. Words from `prose::workloads`.

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use super::table::table;
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose::workloads as words;
use topo_engine::report::ServiceReport;
use topo_engine::report::workloads::FoundBy;

/// The section; nothing when the workloads were not read.
pub(super) fn section(
    report: &ServiceReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let Some(w) = &report.workloads else { return Ok(()) };
    writeln!(out, "\n{}", p.heading("Workloads"))?;
    paragraph(out, o.wrap(), "  ", "    ", words::found_by(w.found_by))?;
    if !w.workloads.is_empty() {
        let rows = (w.workloads.iter())
            .map(|w| {
                let pods = w.pods.map_or_else(|| "-".to_string(), |n| n.to_string());
                vec![escape(&words::name(w)).into_owned(), words::replicas(w), words::autoscaler(w), pods]
                    .into_iter()
                    .chain([escape(&words::spread(w)).into_owned()])
                    .collect()
            })
            .collect();
        let headers = ["WORKLOAD", "REPLICAS", "AUTOSCALER", "PODS", "SPREAD"];
        out.write_all(table(&headers, rows, o.no_headers).as_bytes())?;
    } else if w.found_by != FoundBy::Unknown {
        paragraph(out, o.wrap(), "  ", "    ", words::NONE_FOUND)?;
    }
    if w.unowned_endpoints > 0 {
        paragraph(out, o.wrap(), "  ", "    ", &words::unowned(w.unowned_endpoints))?;
    }
    let unavailable = words::unavailable(w);
    if !unavailable.is_empty() {
        let text = format!("unavailable: {}; {}", unavailable.join(", "), words::UNAVAILABLE_REMEDY);
        paragraph(out, o.wrap(), "  ", "    ", &text)?;
    }
    Ok(())
}
