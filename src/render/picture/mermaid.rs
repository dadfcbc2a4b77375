//! `-o mermaid`: the routing graph as a Mermaid flowchart (renders in GitHub and GitLab Markdown).
//! The same graph as `-o dot`: one subgraph per Service family, clients per origin zone, endpoints
//! per destination zone, one labelled edge per routed zone pair. Every label is a quoted string
//! with entity codes ([`super::escape::mermaid`]); every ID is generated.

use std::io::Write;

use super::escape::mermaid as esc;
use super::graph::{MAX_ROUTES, Nodes, Panel, Side, routed, routes};
use crate::prose::picture as words;

/// Write the panels as one flowchart.
pub fn write(panels: &[Panel<'_>], note: Option<&str>, out: &mut dyn Write) -> std::io::Result<()> {
    begin(note, out)?;
    for (i, panel) in panels.iter().enumerate() {
        subgraph(i, panel, out)?;
    }
    Ok(())
}

/// The flowchart's opening, with a `note` node.
pub(crate) fn begin(note: Option<&str>, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "flowchart LR")?;
    if let Some(note) = note {
        writeln!(out, "  note[\"{}\"]", esc(note))?;
    }
    Ok(())
}

/// Panel `i` as one subgraph.
pub(crate) fn subgraph(i: usize, p: &Panel<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let title = words::panel_title(&p.service.service, p.family, p.side.map(|s| s == Side::After));
    writeln!(out, "  subgraph p{i}[\"{}\"]", esc(&title))?;
    let Some(c) = &p.family.cross_zone else {
        writeln!(out, "    p{i}_none[\"{}\"]", esc(words::NO_ROUTING))?;
        return writeln!(out, "  end");
    };
    let routes = routes(c);
    if routes.len() == MAX_ROUTES && routed(c) > MAX_ROUTES {
        writeln!(out, "    %% {}", esc(&words::routes_capped(routes.len(), routed(c))))?;
    }
    let nodes = Nodes::of(&routes);
    for (k, (zone, share)) in nodes.from.iter().enumerate() {
        writeln!(out, "    p{i}_from{k}[\"{}\"]", lines(&words::clients(zone, *share)))?;
    }
    for (k, zone) in nodes.to.iter().enumerate() {
        let ready = p.family.zones.iter().find(|z| z.zone == *zone).map(|z| z.ready_endpoints);
        writeln!(out, "    p{i}_to{k}[(\"{}\")]", lines(&words::endpoints(zone, ready)))?;
    }
    for r in &routes {
        let (from, to) = nodes.edge(r);
        writeln!(out, "    p{i}_from{from} -->|\"{}\"| p{i}_to{to}", esc(&words::route(&r.share)))?;
    }
    writeln!(out, "  end")
}

/// Escaped lines joined by a line break Mermaid renders.
fn lines(lines: &[String]) -> String {
    lines.iter().map(|l| esc(l)).collect::<Vec<_>>().join("<br/>")
}
