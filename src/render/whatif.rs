//! The what-if sections of `explain`: replicas needed and the cross-zone share.

use std::io::Write;

use super::RenderOptions;
use super::style::{Palette, zone_cell};
use super::table::table;
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose::whatif::{replicas_lines, traffic_model};
use topo_engine::report::FamilyReport;
use topo_engine::report::whatif::{CrossZone, Outcomes, Share};

/// Replicas needed (Auto mode only).
pub(crate) fn replicas(
    f: &FamilyReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let Some(r) = &f.replicas else { return Ok(()) };
    writeln!(out)?;
    for (i, line) in replicas_lines(r).into_iter().enumerate() {
        let line = escape(&line).into_owned();
        if i == 0 {
            paragraph(out, o.wrap(), "", "  ", &p.heading(&line))?;
        } else {
            paragraph(out, o.wrap(), "  ", "    ", &line)?;
        }
    }
    Ok(())
}

/// A share as a percentage, with what is dropped.
pub(crate) fn share(s: &Share) -> String {
    let mut text = format!("{:.1}%", s.cross_zone * 100.0);
    if s.dropped > 0.0 {
        text.push_str(&format!(" ({:.1}% dropped)", s.dropped * 100.0));
    }
    text
}

fn cells(o: &Outcomes<Share>) -> [String; 3] {
    [share(&o.now), share(&o.expected), share(&o.without_hints)]
}

fn load(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.2}×"))
}

/// Cross-zone share per origin zone and overall; per-endpoint load with -o wide.
pub(crate) fn cross_zone(
    f: &FamilyReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let Some(c) = &f.cross_zone else { return Ok(()) };
    writeln!(out, "\n{}", p.heading("Cross-zone requests"))?;
    paragraph(
        out,
        o.wrap(),
        "  ",
        "    ",
        &format!("{} {}", p.dim("model:"), traffic_model(c.traffic_source)),
    )?;
    let mut rows: Vec<Vec<String>> = c
        .zones
        .iter()
        .map(|z| {
            let mut row = vec![escape(&z.zone).into_owned(), format!("{:.1}%", z.traffic_share * 100.0)];
            row.extend(cells(&z.share));
            row
        })
        .collect();
    let mut all = vec!["ALL".to_string(), "100.0%".to_string()];
    all.extend(cells(&c.overall));
    rows.push(all);
    let headers = ["FROM", "REQUESTS", "LEAVE ZONE NOW", "AFTER SYNC", "WITHOUT HINTS"];
    out.write_all(table(&headers, rows, o.no_headers).as_bytes())?;
    let m = &c.max_load;
    let busiest = format!(
        "Busiest endpoint vs an even share: {} now, {} after sync, {} without hints.",
        load(m.now),
        load(m.expected),
        load(m.without_hints)
    );
    paragraph(out, o.wrap(), "  ", "    ", &busiest)?;
    if o.wide() {
        endpoint_loads(c, o, out)?;
    }
    Ok(())
}

/// Per-endpoint load relative to an even share (-o wide).
fn endpoint_loads(c: &CrossZone, o: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let rows = c
        .endpoints
        .iter()
        .map(|e| {
            vec![
                escape(&e.address).into_owned(),
                zone_cell(&e.zone),
                load(Some(e.load.now)),
                load(Some(e.load.expected)),
                load(Some(e.load.without_hints)),
            ]
        })
        .collect();
    let headers = ["ENDPOINT", "ZONE", "LOAD NOW", "AFTER SYNC", "WITHOUT HINTS"];
    writeln!(out)?;
    out.write_all(table(&headers, rows, o.no_headers).as_bytes())
}
