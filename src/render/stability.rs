//! `explain`'s Stability section (margin per Auto family, the Events' history) and
//! `simulate --replicas MIN..MAX`'s certificate (docs/stability.md). Words from `prose::stability`.

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use super::table::table;
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose::stability as words;
use topo_engine::report::ServiceReport;
use topo_engine::report::stability::load::LoadCheck;
use topo_engine::report::stability::{Certificate, Margin, ShareFlip, ShareMargin};

/// The section, when some family has a margin or the Events a history.
pub(crate) fn section(
    report: &ServiceReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let margins: Vec<(&str, &Margin)> = report
        .families
        .iter()
        .filter_map(|f| f.stability.as_ref().map(|m| (f.address_type.as_str(), m)))
        .collect();
    let loads: Vec<(&str, &LoadCheck)> = report
        .families
        .iter()
        .filter_map(|f| f.load.as_ref().map(|l| (f.address_type.as_str(), l)))
        .collect();
    if margins.is_empty() && loads.is_empty() && report.history.is_none() {
        return Ok(());
    }
    writeln!(out, "\n{}", p.heading("Stability"))?;
    for (address_type, m) in &margins {
        if margins.len() > 1 {
            writeln!(out, "  {}", p.dim(address_type))?;
        }
        margin(m, o, out)?;
    }
    for (address_type, l) in &loads {
        let prefix = if loads.len() > 1 { format!("  {address_type}: ") } else { "  ".to_string() };
        paragraph(out, o.wrap(), &prefix, "    ", &words::load_line(l))?;
    }
    if let Some(h) = &report.history {
        paragraph(out, o.wrap(), "  ", "    ", &words::history_line(h))?;
    }
    certificates(report, o, out)
}

/// Each workload's certificate (its summary, then its basis), or why there is none.
fn certificates(report: &ServiceReport, o: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(c) = &report.certificates else { return Ok(()) };
    if let Some(unknown) = &c.unknown {
        paragraph(out, o.wrap(), "  ", "    ", &words::unknown_line(unknown))?;
    }
    for w in &c.workloads {
        paragraph(out, o.wrap(), "  ", "    ", &words::workload_line(w))?;
        paragraph(out, o.wrap(), "    ", "    ", &words::workload_basis(w))?;
    }
    Ok(())
}

fn margin(m: &Margin, o: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    paragraph(out, o.wrap(), "  ", "    ", &words::margin_summary(m))?;
    // The zone of the nearest flip in words; the table has every zone's band.
    let nearest = m.shares.iter().min_by(|a, b| nearest_points(a).total_cmp(&nearest_points(b)));
    if let Some(s) = nearest.filter(|s| s.down.is_some() || s.up.is_some()) {
        paragraph(out, o.wrap(), "  ", "    ", &words::share_line(s, m.holds))?;
    }
    if !m.shares.is_empty() {
        let rows = m
            .shares
            .iter()
            .map(|s| {
                vec![
                    escape(&s.zone).into_owned(),
                    s.millis.to_string(),
                    format!("{:.1}%", s.share * 100.0),
                    bound(s.down),
                    bound(s.up),
                ]
            })
            .collect();
        let headers = ["ZONE", "CPU(m)", "SHARE", "HOLDS DOWN TO", "HOLDS UP TO"];
        writeln!(out)?;
        let text = table(&headers, rows, o.no_headers);
        for line in text.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    for line in words::node_lines(&m.nodes, m.nodes_examined, m.holds) {
        paragraph(out, o.wrap(), "  ", "    ", &line)?;
    }
    for line in words::endpoint_lines(&m.endpoints, m.holds) {
        paragraph(out, o.wrap(), "  ", "    ", &line)?;
    }
    Ok(())
}

/// The smallest share move of a zone that flips the verdict (infinite when none does).
fn nearest_points(s: &ShareMargin) -> f64 {
    [s.down, s.up]
        .into_iter()
        .flatten()
        .map(|f| (f.flips_at_share - s.share).abs())
        .fold(f64::INFINITY, f64::min)
}

/// `40.1% (4012m)`, or `-` when no change that way flips the verdict.
fn bound(flip: Option<ShareFlip>) -> String {
    flip.map_or_else(|| "-".into(), |f| format!("{:.1}% ({}m)", f.holds_to_share * 100.0, f.holds_to_millis))
}

/// `simulate --replicas MIN..MAX` as a table: a header, then the certificate.
pub(crate) fn certificate_report(
    r: &topo_engine::report::stability::CertificateReport,
    o: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let p = Palette::new(o.color);
    let name = format!("Certify Service {}/{}", escape(&r.service.namespace), escape(&r.service.name));
    let header =
        format!("{}  mode {}  · Kubernetes {} behaviour", p.heading(&name), r.mode, r.kubernetes_version);
    paragraph(out, o.wrap(), "", "  ", &header)?;
    if let Some(note) = words::not_auto(r.mode) {
        paragraph(out, o.wrap(), "  ", "    ", &note)?;
    }
    certificate(&r.certificate, o, &p, out)
}

/// The certificate: its summary, its basis, the exceptions table.
pub(crate) fn certificate(
    c: &Certificate,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "\n{}", p.heading("Stability certificate"))?;
    paragraph(out, o.wrap(), "  ", "    ", &words::certificate_summary(c))?;
    paragraph(out, o.wrap(), "  ", "    ", &words::certificate_basis(c))?;
    if c.exceptions.is_empty() {
        return Ok(());
    }
    let rows = c
        .exceptions
        .iter()
        .map(|e| vec![e.count.to_string(), e.allowed.to_string(), e.failing.to_string()])
        .collect();
    writeln!(out)?;
    let text = table(&["REPLICAS", "PLACEMENTS", "FAILING"], rows, o.no_headers);
    for line in text.lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}
