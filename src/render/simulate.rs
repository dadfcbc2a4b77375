//! `simulate`: the changes, whether the controller reaches the new state, a before → after
//! summary, then the full `explain` of the changed cluster.

use std::io::Write;

use super::RenderOptions;
use super::style::{Palette, zone_cell};
use super::table::{percent, table};
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose;
use crate::prose::whatif::sync_note;
use topo_engine::report::whatif::{BeforeAfter, FamilyDelta, ProxyBrief, SimulationReport};

/// Render a simulation.
pub(crate) fn render(
    report: &SimulationReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let p = Palette::new(options.color);
    let name =
        format!("Simulate Service {}/{}", escape(&report.service.namespace), escape(&report.service.name));
    let basis = prose::version::header_suffix(report.kubernetes_version_basis.as_ref());
    let header = format!(
        "{}  · Kubernetes {} behaviour{}",
        p.heading(&name),
        report.kubernetes_version,
        escape(&basis)
    );
    paragraph(out, options.wrap(), "", "  ", &header)?;
    paragraph(out, options.wrap(), "  changes: ", "    ", &escape(&report.changes.join(" ")))?;
    controller(report, options.wrap(), &p, out)?;
    for family in &report.summary {
        writeln!(out)?;
        delta(family, options, &p, out)?;
    }
    writeln!(out, "\n{}\n", p.heading("After — explain of the changed cluster"))?;
    super::explain::render(&report.after, options, out)
}

pub(super) fn controller(
    report: &SimulationReport,
    wrap: super::wrap::Wrap,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let s = &report.sync;
    let headline = if s.synced {
        "syncs the Service — the state below is reached"
    } else {
        "does not sync the Service — the state below is NOT reached on its own"
    };
    writeln!(out)?;
    paragraph(out, wrap, "", "  ", &format!("{} {headline}", p.heading("Controller:")))?;
    for note in &s.notes {
        paragraph(out, wrap, "  - ", "    ", sync_note(*note))?;
    }
    for e in &s.events {
        let text = format!(
            "{} {} {} {}",
            p.dim("event:"),
            escape(&e.event_type),
            escape(&e.reason),
            escape(&e.message)
        );
        paragraph(out, wrap, "  ", "    ", &text)?;
    }
    let lists =
        [("created", &s.created_slices), ("updated", &s.updated_slices), ("deleted", &s.deleted_slices)];
    let parts: Vec<String> = lists
        .iter()
        .filter(|(_, l)| !l.is_empty())
        .map(|(what, l)| format!("{what} {}", l.join(",")))
        .collect();
    if !parts.is_empty() {
        paragraph(out, wrap, "  ", "    ", &format!("{} {}", p.dim("slices:"), escape(&parts.join("; "))))?;
    }
    Ok(())
}

fn arrow<T: PartialEq>(v: &BeforeAfter<T>, show: impl Fn(&T) -> String) -> String {
    if v.before == v.after { show(&v.before) } else { format!("{} → {}", show(&v.before), show(&v.after)) }
}

fn codes(list: &[topo_engine::report::reason::ReasonCode]) -> String {
    if list.is_empty() {
        "-".into()
    } else {
        list.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
    }
}

fn proxy(list: &[ProxyBrief]) -> String {
    if list.is_empty() {
        return "-".into();
    }
    list.iter().map(|b| format!("{} {}", b.mode, b.endpoints)).collect::<Vec<_>>().join(" / ")
}

pub(super) fn delta(
    f: &FamilyDelta,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let verdict = arrow(&f.verdict, |v| v.map_or_else(|| "-".into(), |v| v.to_string()));
    writeln!(out, "{}  {}", p.heading(&f.address_type), verdict)?;
    writeln!(out, "  reasons: {}", arrow(&f.reasons, |r| codes(r)))?;
    let pct = |v: &Option<f64>| v.map_or_else(|| "-".into(), |v| format!("{:.1}%", v * 100.0));
    writeln!(out, "  requests leaving their zone: {}", arrow(&f.cross_zone, pct))?;
    let rows = f
        .zones
        .iter()
        .map(|z| {
            vec![
                zone_cell(&z.zone),
                arrow(&z.cpu_share, |s| percent(*s)),
                arrow(&z.ready, i64::to_string),
                arrow(&z.hinted, i64::to_string),
                arrow(&z.proxy, |l| proxy(l)),
            ]
        })
        .collect();
    writeln!(out)?;
    out.write_all(
        table(&["ZONE", "SHARE", "READY", "HINTED", "KUBE-PROXY (MODE ENDPOINTS)"], rows, o.no_headers)
            .as_bytes(),
    )
}
