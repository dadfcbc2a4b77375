//! `check -o html`: a summary (Services by verdict, the cross-zone share), one table row per
//! Service linking to its section, then the sections in closed `<details>` (or, beyond the size
//! cap the caller chose, a note saying which Services have none).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

use super::super::CheckDetails;
use super::super::escape::html as esc;
use super::service::{section, verdict_class};
use crate::prose;
use crate::prose::picture::{self as words, page};
use topo_engine::report::{CheckReport, CheckRow, ServiceRef};

/// The check page; the Services of `details` get a section each, written as its report is
/// computed (the summary and the table first, then one section at a time).
pub fn check(report: &CheckReport, details: &CheckDetails, out: &mut dyn Write) -> std::io::Result<()> {
    super::open(page::CHECK, out)?;
    let mut body = format!("<h1>{}</h1>", esc(page::CHECK));
    summary(&mut body, report);
    let shown = details.services.len();
    if shown < report.services.len() {
        let _ =
            write!(body, "<p class=\"note-cap\">{}</p>", esc(&words::capped(shown, report.services.len())));
    }
    let sections: BTreeMap<&ServiceRef, usize> =
        details.services.iter().enumerate().map(|(i, s)| (s, i)).collect();
    table(&mut body, report, &sections);
    out.write_all(body.as_bytes())?;
    drop(body);
    let zones = details.zones.as_ref();
    details.each(|i, d| {
        let worst = d.families.iter().map(|f| f.verdict).max_by_key(|v| v.severity());
        let verdict = worst
            .map_or(String::new(), |v| format!("<span class=\"verdict {}\">{v}</span>", verdict_class(v)));
        write!(
            out,
            "<details class=\"service-details\" id=\"s{i}\"><summary>{}{verdict}</summary>{}</details>",
            esc(&format!("{}/{}", d.service.namespace, d.service.name)),
            section(d, &format!("s{i}-section"), zones, super::bands::FULL_WIDTH)
        )
    })?;
    super::close(out)
}

fn summary(body: &mut String, report: &CheckReport) {
    let _ = write!(
        body,
        "<p class=\"meta\">{} · {}</p><div class=\"summary\">",
        esc(&page::services(report.summary.services)),
        esc(&page::behaviour(&report.kubernetes_version))
    );
    let _ = write!(body, "<p class=\"meta\">{}</p>", esc(&prose::check::summary_line(&report.summary)));
    for (verdict, count) in &report.summary.verdicts {
        let class = report
            .services
            .iter()
            .flat_map(|r| &r.families)
            .find(|f| f.verdict.to_string() == *verdict)
            .map_or("v-quiet", |f| verdict_class(f.verdict));
        let _ = write!(body, "<span class=\"verdict {class}\">{} {count}</span>", esc(verdict));
    }
    let families = || report.services.iter().flat_map(|r| &r.families);
    let now = mean(families().filter_map(|f| f.cross_zone_now));
    let after_sync = mean(families().filter_map(|f| f.cross_zone_after_sync));
    let _ = write!(body, "</div><p class=\"meta\">{}</p>", esc(&page::cluster_cross_zone(now, after_sync)));
    for note in &report.partial {
        let _ = write!(body, "<p class=\"note\">{}</p>", esc(note));
    }
}

fn mean(shares: impl Iterator<Item = f64>) -> Option<f64> {
    let shares: Vec<f64> = shares.collect();
    (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
}

fn table(body: &mut String, report: &CheckReport, sections: &BTreeMap<&ServiceRef, usize>) {
    body.push_str("<table><thead><tr>");
    for h in page::CHECK_HEADERS {
        let _ = write!(body, "<th>{h}</th>");
    }
    body.push_str("</tr></thead><tbody>");
    for row in &report.services {
        row_html(body, row, sections.get(&row.service).copied());
    }
    body.push_str("</tbody></table>");
}

fn row_html(body: &mut String, row: &CheckRow, link: Option<usize>) {
    let name = esc(&format!("{}/{}", row.service.namespace, row.service.name));
    let cell = match link {
        Some(i) => format!("<a href=\"#s{i}\">{name}</a>"),
        None => name,
    };
    let verdicts: Vec<String> = row
        .families
        .iter()
        .map(|f| {
            format!(
                "<span class=\"verdict {}\">{}</span> {}",
                verdict_class(f.verdict),
                f.verdict,
                esc(&f.address_type)
            )
        })
        .collect();
    let reason = row.families.iter().find_map(|f| f.reasons.first());
    let reason =
        reason.map_or(String::new(), |r| format!("<code>{}</code> {}", r.code, esc(&prose::sentence(r))));
    let joined = |values: Vec<String>| if values.is_empty() { "-".to_string() } else { values.join(" / ") };
    let replicas =
        joined(row.families.iter().filter_map(|f| f.replicas_needed).map(|n| n.to_string()).collect());
    let now = joined(row.families.iter().filter_map(|f| f.cross_zone_now).map(words::percent).collect());
    let after =
        joined(row.families.iter().filter_map(|f| f.cross_zone_after_sync).map(words::percent).collect());
    let _ = write!(
        body,
        "<tr class=\"row\"><td>{cell}</td><td>{}</td><td>{}</td><td>{reason}</td><td class=\"num\">{replicas}</td>\
         <td class=\"num\">{now}</td><td class=\"num\">{after}</td></tr>",
        row.mode,
        verdicts.join("<br>"),
    );
}
