//! `-o html`: one self-contained page (inline CSS and SVG; no script, no external asset, no
//! network). `explain` is one Service section; `check` a summary, a table linking to each
//! Service's section, and the sections (closed `<details>`, so a large page lays out quickly);
//! `simulate` the Service before and after, side by side.

use std::io::Write;

use super::escape::html as esc;
use crate::prose::picture::page;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{ServiceReport, ZoneReport};

mod bands;
mod check;
mod margin;
mod service;

pub use check::check;

const CSS: &str = include_str!("html/page.css");

/// The page around `body`.
fn document(title: &str, body: &str, out: &mut dyn Write) -> std::io::Result<()> {
    open(title, out)?;
    out.write_all(body.as_bytes())?;
    close(out)
}

/// The page up to its body's content.
fn open(title: &str, out: &mut dyn Write) -> std::io::Result<()> {
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        esc(title)
    )
}

/// The page after its body's content.
fn close(out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(b"\n</body>\n</html>\n")
}

/// `explain` of one Service.
pub fn explain(
    report: &ServiceReport,
    zones: Option<&ZoneReport>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let s = &report.service;
    let title = page::explain(&s.namespace, &s.name);
    let body =
        format!("<h1>{}</h1>\n{}", esc(&title), service::section(report, "s0", zones, bands::FULL_WIDTH));
    document(&title, &body, out)
}

/// `simulate`: the changes and the controller's reaction, then before and after side by side.
pub fn simulate(report: &SimulationReport, out: &mut dyn Write) -> std::io::Result<()> {
    let s = &report.service;
    let title = page::simulate(&s.namespace, &s.name);
    let mut body = format!("<h1>{}</h1>", esc(&title));
    body.push_str(&format!("<p class=\"meta\">{}</p>", esc(&page::changes(&report.changes.join(" ")))));
    body.push_str(&format!(
        "<p class=\"controller\"><b>{}</b></p><ul>",
        esc(page::synced(report.sync.synced))
    ));
    for note in &report.sync.notes {
        body.push_str(&format!("<li>{}</li>", esc(crate::prose::whatif::sync_note(*note))));
    }
    body.push_str("</ul><div class=\"sides\">");
    for (heading, side, anchor) in
        [(page::BEFORE, &report.before, "before"), (page::AFTER, &report.after, "after")]
    {
        body.push_str(&format!(
            "<div class=\"side\" data-side=\"{anchor}\"><h2 class=\"side-heading\">{}</h2>{}</div>",
            esc(heading),
            service::section(side, anchor, None, bands::HALF_WIDTH)
        ));
    }
    body.push_str("</div>");
    document(&title, &body, out)
}
