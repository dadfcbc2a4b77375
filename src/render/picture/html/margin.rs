//! The margin picture of one Auto family (docs/stability.md#share): per zone a bar from 0 to 100 %
//! of the cluster's CPU, the band inside which the zone's share keeps today's verdict shaded, and
//! today's share marked. Inline SVG; words from `prose::stability`.

use std::fmt::Write as _;

use super::super::escape::html as esc;
use crate::prose::stability as words;
use topo_engine::report::ServiceReport;
use topo_engine::report::stability::Margin;

const ROW: f64 = 26.0;
const LABEL: f64 = 140.0;
const BAR: f64 = 12.0;

/// The figure, or nothing when no zone has a share margin.
pub(crate) fn figure(m: &Margin, width: f64) -> String {
    if m.shares.is_empty() {
        return String::new();
    }
    let span = width - LABEL - 20.0;
    let x = |share: f64| LABEL + share.clamp(0.0, 1.0) * span;
    let height = ROW * m.shares.len() as f64 + 6.0;
    let band = if m.holds { "#59a14f" } else { "#bab0ac" };
    let mut svg = format!(
        "<svg class=\"margin\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\">"
    );
    for (i, s) in m.shares.iter().enumerate() {
        let y = 4.0 + ROW * i as f64;
        let lo = s.down.map_or(0.0, |f| f.holds_to_share);
        let hi = s.up.map_or(1.0, |f| f.holds_to_share);
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{ty}\" font-size=\"13\">{zone}</text>\
             <rect x=\"{x0}\" y=\"{y}\" width=\"{full}\" height=\"{BAR}\" fill=\"#eeeeee\"/>\
             <rect class=\"band\" x=\"{bx}\" y=\"{y}\" width=\"{bw}\" height=\"{BAR}\" fill=\"{band}\"/>\
             <rect class=\"today\" x=\"{tx}\" y=\"{ty0}\" width=\"3\" height=\"{th}\" fill=\"#222222\"/>",
            ty = y + BAR - 1.0,
            zone = esc(&s.zone),
            x0 = x(0.0),
            full = span,
            bx = x(lo),
            bw = (x(hi) - x(lo)).max(1.0),
            tx = x(s.share) - 1.5,
            ty0 = y - 3.0,
            th = BAR + 6.0,
        );
    }
    svg.push_str("</svg>");
    format!(
        "<figure class=\"margin\"><figcaption>{}</figcaption>{svg}</figure>",
        esc(&words::margin_caption(m.holds))
    )
}

/// The Service's load lines (a close trafficDistribution heuristic) and certificates (Auto).
pub(crate) fn stability(report: &ServiceReport) -> String {
    let mut h = String::new();
    for f in &report.families {
        if let Some(l) = &f.load {
            let _ =
                write!(h, "<p class=\"load\">{}: {}</p>", esc(&f.address_type), esc(&words::load_line(l)));
        }
    }
    h.push_str(&certificates(report));
    h
}

/// The Service's certificates (docs/stability.md#certificate-from-the-workloads): one paragraph per
/// workload, or the line saying why there is none; nothing off the Auto path.
fn certificates(report: &ServiceReport) -> String {
    let Some(c) = &report.certificates else { return String::new() };
    let mut h = String::from("<div class=\"certificate\">");
    if let Some(unknown) = &c.unknown {
        let _ = write!(h, "<p class=\"quiet\">{}</p>", esc(&words::unknown_line(unknown)));
    }
    for w in &c.workloads {
        let _ = write!(
            h,
            "<p>{}</p><p class=\"quiet\">{}</p>",
            esc(&words::workload_line(w)),
            esc(&words::workload_basis(w))
        );
    }
    h.push_str("</div>");
    h
}
