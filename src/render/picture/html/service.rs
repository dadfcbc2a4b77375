//! One Service as an HTML section: per address family the verdict, the reasons in words with their
//! numbers, the zones as columns (CPU share, nodes, endpoints, overload against the threshold) and
//! the routing bands now and after the next sync.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::super::escape::html as esc;
use super::super::graph::{MAX_ROUTES, columns, routed, routes};
use super::bands::{self, State};
use crate::prose;
use crate::prose::picture::{self as words, card};
use topo_engine::core::topologycache::OVERLOAD_THRESHOLD;
use topo_engine::report::reason::Reason;
use topo_engine::report::whatif::CrossZone;
use topo_engine::report::{FamilyReport, ServiceReport, Verdict, ZoneReport};

/// Nodes per zone: kube-proxy's groups of the family when it has them, else the `zones` report.
fn node_counts<'a>(f: &'a FamilyReport, zones: Option<&'a ZoneReport>) -> BTreeMap<&'a str, usize> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    if f.proxy.iter().any(|v| !v.nodes.is_empty()) {
        f.proxy.iter().for_each(|v| *counts.entry(v.zone.as_str()).or_default() += v.nodes.len());
    } else if let Some(z) = zones {
        for line in &z.zones {
            counts.insert(line.zone.as_str(), line.nodes_total);
        }
    }
    counts
}

/// CSS class of a verdict.
pub(crate) fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Active => "v-active",
        Verdict::Blocked => "v-blocked",
        Verdict::Drift => "v-drift",
        Verdict::NotEnabled | Verdict::Unmanaged | Verdict::Unknown => "v-quiet",
    }
}

/// The section of one Service; `anchor` is its generated id, `width` that of its drawings
/// ([`bands::FULL_WIDTH`] or [`bands::HALF_WIDTH`]).
pub(crate) fn section(
    report: &ServiceReport,
    anchor: &str,
    zones: Option<&ZoneReport>,
    width: f64,
) -> String {
    let s = &report.service;
    let mut h = format!(
        "<section class=\"service\" id=\"{anchor}\" data-service=\"{}/{}\"><h2>{}</h2>",
        esc(&s.namespace),
        esc(&s.name),
        esc(&words::page::service(&s.namespace, &s.name))
    );
    let _ = write!(
        h,
        "<p class=\"meta\">mode <b>{}</b> · {}</p>",
        report.mode,
        esc(&words::page::behaviour(&report.kubernetes_version))
    );
    for note in &report.notes {
        let _ = write!(
            h,
            "<p class=\"note\"><span class=\"tag\">{}</span> <code>{}</code> {}</p>",
            words::page::NOTE,
            note.code,
            esc(&prose::sentence(note))
        );
    }
    for f in &report.families {
        family(&mut h, f, &report.notes, zones, width);
    }
    h.push_str(&super::margin::stability(report));
    h.push_str("</section>");
    h
}

fn family(h: &mut String, f: &FamilyReport, notes: &[Reason], zones: Option<&ZoneReport>, width: f64) {
    let _ = write!(
        h,
        "<article class=\"family\" data-family=\"{}\"><h3>{} <span class=\"verdict {}\">{}</span> \
         <span class=\"action\">{}</span></h3>",
        esc(&f.address_type),
        esc(&f.address_type),
        verdict_class(f.verdict),
        f.verdict,
        esc(&words::page::action(&f.action.to_string()))
    );
    reasons(h, f, notes);
    let cols = columns(f);
    if cols.is_empty() {
        h.push_str("</article>");
        return;
    }
    zone_cards(h, f, &cols, &node_counts(f, zones));
    if let Some(m) = &f.stability {
        h.push_str(&super::margin::figure(m, width));
    }
    match &f.cross_zone {
        None => {
            let _ = write!(h, "<p class=\"quiet\">{}</p>", esc(words::NO_ROUTING));
        }
        Some(c) => {
            let routes = routes(c);
            let _ = write!(h, "<p class=\"legend\">{}</p>", esc(words::BANDS));
            capped_note(h, c, routes.len());
            for (state, caption, share) in [
                (State::Now, words::NOW, &c.overall.now),
                (State::Expected, words::AFTER_SYNC, &c.overall.expected),
            ] {
                let _ = write!(
                    h,
                    "<figure class=\"state\"><figcaption><b>{}</b> — {}</figcaption>{}</figure>",
                    esc(caption),
                    esc(&words::leaving(share.cross_zone, share.dropped)),
                    bands::svg(&cols, &routes, state, width)
                );
            }
        }
    }
    h.push_str("</article>");
}

/// The remedy, the reasons (kept, then set aside by an ignore rule) and the Replicas section the
/// remedy may point to.
fn reasons(h: &mut String, f: &FamilyReport, notes: &[Reason]) {
    let _ = write!(
        h,
        "<p class=\"remedy\">→ {}</p><ul class=\"reasons\">",
        esc(&prose::family_remedy(f.reasons.first(), notes))
    );
    for r in &f.reasons {
        // Each code links its reference page (docs/reasons/), the one link that leaves the page.
        let page = esc(&prose::reference::page_url(r.code));
        let _ =
            write!(h, "<li><a href=\"{page}\"><code>{}</code></a> {}</li>", r.code, esc(&prose::sentence(r)));
    }
    for r in &f.ignored {
        let _ = write!(
            h,
            "<li class=\"quiet\"><code>ignored:{}</code> {}</li>",
            r.code,
            esc(&prose::sentence(r))
        );
    }
    h.push_str("</ul>");
    // The remedy's "see Replicas below": the counts at which hints hold (Auto mode).
    if let Some(r) = &f.replicas {
        h.push_str("<div class=\"replicas\">");
        for (i, line) in prose::whatif::replicas_lines(r).iter().enumerate() {
            let line = esc(line);
            let _ = if i == 0 { write!(h, "<p><b>{line}</b></p>") } else { write!(h, "<p>{line}</p>") };
        }
        h.push_str("</div>");
    }
}

/// When the family routes more zone pairs than are drawn ([`MAX_ROUTES`]), says so.
fn capped_note(h: &mut String, c: &CrossZone, drawn: usize) {
    if drawn == MAX_ROUTES && routed(c) > MAX_ROUTES {
        let note = words::routes_capped(drawn, routed(c));
        let _ = write!(h, "<p class=\"note-cap\">{}</p>", esc(&note));
    }
}

fn zone_cards(h: &mut String, f: &FamilyReport, cols: &[&str], nodes: &BTreeMap<&str, usize>) {
    let _ = write!(h, "<div class=\"zones\" style=\"grid-template-columns:repeat({},1fr)\">", cols.len());
    let threshold = OVERLOAD_THRESHOLD * 100.0;
    for (i, zone) in cols.iter().enumerate() {
        let row = f.zones.iter().find(|z| z.zone == *zone);
        let share = row.and_then(|r| r.cpu_share).map_or(card::UNKNOWN.to_string(), words::percent);
        let count = nodes.get(zone).map_or(card::UNKNOWN.to_string(), usize::to_string);
        let ready = row.map_or(card::UNKNOWN.to_string(), |r| r.ready_endpoints.to_string());
        let hinted =
            row.map_or(card::UNKNOWN.to_string(), |r| format!("{} → {}", r.actual_hinted, r.expected_hinted));
        let _ = write!(
            h,
            "<div class=\"zone\" data-zone=\"{}\"><h4><i style=\"background:{}\"></i>{}</h4><dl>\
             <dt>{}</dt><dd>{share}</dd><dt>{}</dt><dd>{count}</dd><dt>{}</dt><dd>{ready}</dd>\
             <dt>{}</dt><dd>{hinted}</dd></dl>",
            esc(zone),
            bands::COLOURS[i % bands::COLOURS.len()],
            esc(&words::zone(zone)),
            card::CPU_SHARE,
            card::NODES,
            card::READY,
            card::HINTED
        );
        meter(h, row.and_then(|r| r.expected_overload_percent), threshold);
        h.push_str("</div>");
    }
    h.push_str("</div>");
}

/// The overload of a zone as a meter with the threshold marked, and in words.
fn meter(h: &mut String, overload: Option<f64>, threshold: f64) {
    let Some(value) = overload else {
        let _ = write!(h, "<p class=\"overload quiet\">{}</p>", esc(&words::overload(None, threshold)));
        return;
    };
    let top = (threshold * 3.0).max(value.abs());
    let fill = (value.max(0.0) / top * 100.0).min(100.0);
    let mark = threshold / top * 100.0;
    let class = if value > threshold { "over" } else { "ok" };
    let _ = write!(
        h,
        "<div class=\"overload {class}\"><span class=\"meter\"><span class=\"fill\" style=\"width:{fill:.1}%\"></span>\
         <span class=\"limit\" style=\"left:{mark:.1}%\"></span></span><span>{}</span></div>",
        esc(&words::overload(Some(value), threshold))
    );
}
