//! `-o dot`: the routing graph for Graphviz. One cluster per Service family; in each, a node for
//! the clients of every origin zone, a node for the endpoints of every destination zone, and one
//! edge per routed zone pair, its width the share of all requests after the next sync.

use std::io::Write;

use super::escape::dot as esc;
use super::graph::{MAX_ROUTES, Nodes, Panel, Side, routed, routes};
use crate::prose::picture as words;

/// Write the panels as one digraph.
pub fn write(panels: &[Panel<'_>], note: Option<&str>, out: &mut dyn Write) -> std::io::Result<()> {
    begin(note, out)?;
    for (i, panel) in panels.iter().enumerate() {
        cluster(i, panel, out)?;
    }
    end(out)
}

/// The digraph's opening and defaults, with a graph label `note`.
pub(crate) fn begin(note: Option<&str>, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "digraph routing {{")?;
    writeln!(out, "  graph [rankdir=LR, fontname=\"Helvetica\", labelloc=t];")?;
    writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f6fa\", fontname=\"Helvetica\"];"
    )?;
    writeln!(out, "  edge [fontname=\"Helvetica\", fontsize=10, color=\"#3b6fb6\"];")?;
    if let Some(note) = note {
        writeln!(out, "  label=\"{}\";", esc(note))?;
    }
    Ok(())
}

/// The digraph's end.
pub fn end(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "}}")
}

/// Panel `i` as one cluster.
pub fn cluster(i: usize, p: &Panel<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let title = words::panel_title(&p.service.service, p.family, p.side.map(|s| s == Side::After));
    writeln!(out, "  subgraph cluster_{i} {{")?;
    writeln!(out, "    label=\"{}\";", esc(&title))?;
    let Some(c) = &p.family.cross_zone else {
        writeln!(out, "    p{i}_none [shape=plaintext, style=\"\", label=\"{}\"];", esc(words::NO_ROUTING))?;
        return writeln!(out, "  }}");
    };
    let routes = routes(c);
    if routes.len() == MAX_ROUTES && routed(c) > MAX_ROUTES {
        writeln!(out, "    // {}", esc(&words::routes_capped(routes.len(), routed(c))))?;
    }
    let nodes = Nodes::of(&routes);
    for (k, (zone, share)) in nodes.from.iter().enumerate() {
        writeln!(out, "    p{i}_from{k} [label=\"{}\"];", lines(&words::clients(zone, *share)))?;
    }
    for (k, zone) in nodes.to.iter().enumerate() {
        let ready = p.family.zones.iter().find(|z| z.zone == *zone).map(|z| z.ready_endpoints);
        writeln!(
            out,
            "    p{i}_to{k} [label=\"{}\", fillcolor=\"#e6f2e6\"];",
            lines(&words::endpoints(zone, ready))
        )?;
    }
    for r in &routes {
        let (from, to) = nodes.edge(r);
        let width = 1.0 + 8.0 * r.of_all().1;
        writeln!(
            out,
            "    p{i}_from{from} -> p{i}_to{to} [label=\"{}\", penwidth={width:.2}];",
            esc(&words::route(&r.share))
        )?;
    }
    writeln!(out, "  }}")
}

/// Escaped lines joined by DOT's centred line break.
fn lines(lines: &[String]) -> String {
    lines.iter().map(|l| esc(l)).collect::<Vec<_>>().join("\\n")
}
