//! The reason reference (`prose::reference`) on a terminal — `kubectl topo reasons [CODE]` — and as
//! the Markdown pages of `docs/reasons/`, which a test holds equal to [`markdown`] and [`index`].

use std::fmt::Write as _;
use std::io::Write;

use strum::VariantArray;
use topo_engine::report::reason::ReasonCode;

use super::RenderOptions;
use super::wrap::{self, Wrap};
use crate::prose::{self, reference};

/// Every code with its one-line meaning, under a header, in the order of the groups.
pub(crate) fn list(options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let width = ReasonCode::VARIANTS.iter().map(|c| <&str>::from(*c).len()).max().unwrap_or(0);
    if !options.no_headers {
        writeln!(out, "{:<width$}   MEANING", "CODE")?;
    }
    for &code in ReasonCode::VARIANTS {
        let line = format!("{:<width$}   {}", <&str>::from(code), reference::entry(code).summary);
        writeln!(out, "{}", terminal(options, &line))?;
    }
    Ok(())
}

/// One code's page: what it means, the upstream rule, how to fix it per release, where to read more.
pub(crate) fn page(code: ReasonCode, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let e = reference::entry(code);
    let w = Wrap { width: options.width, unicode: options.unicode };
    let text = |s: &str| terminal(options, s);
    wrap::paragraph(out, w, &format!("{code}: "), "  ", &text(e.summary))?;
    writeln!(out, "\nWhat it means:")?;
    wrap::paragraph(out, w, "  ", "  ", &text(e.meaning))?;
    if let Some(safeguard) = prose::safeguard(code) {
        wrap::paragraph(out, w, "  ", "  ", &format!("Kubernetes docs: \"{safeguard}\"."))?;
    }
    writeln!(out, "\nUpstream rule:")?;
    for source in e.upstream {
        wrap::paragraph(out, w, "  - ", "    ", &text(source))?;
    }
    writeln!(out, "\nHow to fix it:")?;
    for (releases, what) in e.fix {
        wrap::paragraph(out, w, &format!("  {}: ", text(releases)), "    ", &text(what))?;
    }
    writeln!(out, "\nGroup: {}", reference::group(code))?;
    writeln!(out, "More: {}", reference::page_url(code))
}

fn terminal(options: &RenderOptions, text: &str) -> String {
    if options.unicode { text.to_string() } else { super::ascii::to_ascii(text) }
}

/// `docs/reasons/<code>.md`: the page of one code in Markdown.
pub fn markdown(code: ReasonCode) -> String {
    let e = reference::entry(code);
    let mut md = String::new();
    let _ = writeln!(md, "# {code}\n\n{}\n", e.summary);
    let _ = writeln!(md, "{GENERATED}\n\n## What it means\n\n{}", e.meaning);
    if let Some(safeguard) = prose::safeguard(code) {
        let _ = writeln!(md, "\nThe Kubernetes documentation calls it \"{safeguard}\".");
    }
    let _ = writeln!(md, "\n## Upstream rule\n");
    for source in e.upstream {
        // `(*TopologyCache)`: a literal star, never the start of emphasis.
        let _ = writeln!(md, "- {}", source.replace('*', "\\*"));
    }
    let _ = writeln!(md, "\n## How to fix it\n\n| Releases | What to do |\n|---|---|");
    for (releases, what) in e.fix {
        let _ = writeln!(md, "| {releases} | {} |", what.replace('|', "\\|"));
    }
    let _ = writeln!(md, "\nGroup: {}. All codes: [the index](README.md).", reference::group(code));
    md
}

/// `docs/reasons/README.md`: every code by group, each linking its page.
pub fn index() -> String {
    let mut md = format!(
        "# Reason codes\n\n{GENERATED}\n\nEvery verdict of `kubectl topo` comes with reason codes. \
         `kubectl topo reasons` lists them and `kubectl topo reasons CODE` prints the page of one; \
         the pages are linked below, by group.\n"
    );
    let mut groups: Vec<&str> = ReasonCode::VARIANTS.iter().map(|c| reference::group(*c)).collect();
    groups.dedup();
    let mut seen = std::collections::HashSet::new();
    for group in groups.into_iter().filter(|g| seen.insert(*g)) {
        let _ = writeln!(md, "\n## {group}\n");
        for &code in ReasonCode::VARIANTS.iter().filter(|c| reference::group(**c) == group) {
            let _ = writeln!(md, "- [{code}]({code}.md): {}", reference::entry(code).summary);
        }
    }
    md
}

const GENERATED: &str = "<!-- Generated from src/prose/reference/ by `UPDATE_REASONS=1 cargo test --test \
     hermetic reasons`; edit there, not here. -->";
