//! `zones` as tables.

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use super::table::{percent, table};
use crate::escape::escape;
use topo_engine::report::ZoneReport;
use topo_engine::report::zones::NodeLine;

/// Zones table, then the nodes left out and the nodes that disable hints.
pub(crate) fn render(
    report: &ZoneReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let palette = Palette::new(options.color);
    let mut rows: Vec<Vec<String>> = report
        .zones
        .iter()
        .map(|z| {
            vec![
                escape(&z.zone).into_owned(),
                z.nodes_total.to_string(),
                z.nodes_counted.to_string(),
                z.cpu_millis.to_string(),
                percent(z.share),
            ]
        })
        .collect();
    if !options.no_headers {
        let (total, counted) =
            report.zones.iter().fold((0, 0), |(t, c), z| (t + z.nodes_total, c + z.nodes_counted));
        rows.push(vec![
            "TOTAL".into(),
            total.to_string(),
            counted.to_string(),
            report.total_cpu_millis.to_string(),
            String::new(),
        ]);
    }
    out.write_all(
        table(&["ZONE", "NODES", "COUNTED", "CPU(m)", "SHARE"], rows, options.no_headers).as_bytes(),
    )?;
    node_section(out, &palette, "Not counted by the controller", &report.excluded, options)?;
    node_section(
        out,
        &palette,
        "Disabling hints for EVERY Service (counted but no zone or CPU)",
        &report.disabling,
        options,
    )?;
    node_information(report, &palette, out)
}

/// Whether the controller has zone weights, and why not.
fn node_information(report: &ZoneReport, palette: &Palette, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out)?;
    if report.sufficient {
        writeln!(
            out,
            "Node information: {}",
            palette.good("sufficient — the controller computes zone weights.")
        )?;
    } else {
        writeln!(out, "Node information: {}", palette.bad("insufficient — no Service gets Auto hints."))?;
        for r in &report.reasons {
            writeln!(out, "  {}: {}", r.code, escape(&crate::prose::sentence(r)))?;
        }
    }
    for note in &report.partial {
        writeln!(out, "Partial data: {}", escape(note))?;
    }
    Ok(())
}

fn node_section(
    out: &mut dyn Write,
    palette: &Palette,
    title: &str,
    nodes: &[NodeLine],
    options: &RenderOptions,
) -> std::io::Result<()> {
    if nodes.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{}", palette.heading(title))?;
    let rows = nodes
        .iter()
        .map(|n| {
            vec![
                escape(&n.name).into_owned(),
                n.zone.as_deref().map(|z| escape(z).into_owned()).unwrap_or_else(|| "-".into()),
                n.why.clone(),
            ]
        })
        .collect();
    out.write_all(table(&["NODE", "ZONE", "WHY"], rows, options.no_headers).as_bytes())
}
