//! `check -o markdown`: a pull-request comment. A heading, the summary line, a table of the
//! Services with findings (any verdict but Active, or any reason), and a collapsible `<details>`
//! per such Service with each family's remedy and every reason's sentence. Text from the cluster is
//! escaped for Markdown and for the HTML a Markdown renderer lets through.

use std::io::Write;

use crate::escape::escape as untrusted;
use crate::prose;
use crate::triage::Triaged;
use topo_engine::report::Verdict;
use topo_engine::report::check::{CheckFamily, CheckRow};

/// The comment.
pub(crate) fn render(triaged: &Triaged, out: &mut dyn Write) -> std::io::Result<()> {
    let report = &triaged.report;
    writeln!(out, "### kubectl topo check\n")?;
    writeln!(out, "{}\n", escape(&prose::check::summary_line(&report.summary)))?;
    for note in &report.partial {
        writeln!(out, "> Partial data: {}\n", escape(note))?;
    }
    let findings: Vec<(&CheckRow, bool)> = report
        .services
        .iter()
        .zip(&triaged.failing)
        .filter(|(row, _)| has_findings(row))
        .map(|(row, failing)| (row, *failing))
        .collect();
    if findings.is_empty() {
        return writeln!(out, "No findings.");
    }
    writeln!(
        out,
        "| Result | Namespace | Service | Mode | Verdict | Reasons | Replicas needed | Cross-zone today | After sync |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
    for (row, failing) in &findings {
        table_row(row, *failing, out)?;
    }
    writeln!(out)?;
    for (row, _) in &findings {
        details(row, out)?;
    }
    Ok(())
}

/// Not Active, or carrying a reason (kept or ignored), or (`check --certify`) a certificate with an
/// exception.
fn has_findings(row: &CheckRow) -> bool {
    row.families
        .iter()
        .any(|f| f.verdict != Verdict::Active || !f.reasons.is_empty() || !f.ignored.is_empty())
        || row.certificates.as_deref().is_some_and(|c| c.excepted())
}

fn table_row(row: &CheckRow, failing: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let joined = |values: Vec<String>| if values.is_empty() { "-".to_string() } else { values.join(", ") };
    let verdicts = joined(row.families.iter().map(|f| format!("{} {}", f.address_type, f.verdict)).collect());
    let mut reasons: Vec<String> = Vec::new();
    for family in &row.families {
        reasons.extend(family.reasons.iter().map(|r| format!("`{}`", r.code)));
        reasons.extend(family.ignored.iter().map(|r| format!("~~`{}`~~ (ignored)", r.code)));
    }
    reasons.dedup();
    let replicas =
        joined(row.families.iter().filter_map(|f| f.replicas_needed).map(|n| n.to_string()).collect());
    let percent = |c: f64| format!("{:.1}%", c * 100.0);
    let now = joined(row.families.iter().filter_map(|f| f.cross_zone_now).map(percent).collect());
    let after = joined(row.families.iter().filter_map(|f| f.cross_zone_after_sync).map(percent).collect());
    writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        if failing { "**fail**" } else { "pass" },
        escape(&row.service.namespace),
        escape(&row.service.name),
        row.mode,
        verdicts,
        joined(reasons),
        replicas,
        now,
        after,
    )
}

fn details(row: &CheckRow, out: &mut dyn Write) -> std::io::Result<()> {
    let name = format!("{}/{}", row.service.namespace, row.service.name);
    writeln!(out, "<details>\n<summary>{} — {}</summary>\n", escape(&name), row.mode)?;
    for family in &row.families {
        family_lines(family, out)?;
    }
    for line in row.certificates.as_deref().map(prose::stability::certificate_lines).unwrap_or_default() {
        writeln!(out, "- {}", escape(&line))?;
    }
    writeln!(out, "\n</details>\n")
}

fn family_lines(family: &CheckFamily, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "- **{} {}**: {}",
        family.address_type,
        family.verdict,
        escape(&prose::remedy(family.reasons.first()))
    )?;
    // The remedy's "see Replicas below".
    if let Some(n) = family.replicas_needed {
        writeln!(out, "  - {}", escape(&prose::check::replicas_needed(n)))?;
    }
    for reason in &family.reasons {
        writeln!(out, "  - `{}`: {}", reason.code, escape(&prose::sentence(reason)))?;
    }
    for reason in &family.ignored {
        writeln!(out, "  - `{}` (ignored by a rule): {}", reason.code, escape(&prose::sentence(reason)))?;
    }
    Ok(())
}

/// Cluster text and sentences as inert Markdown: control characters escaped, HTML specials as
/// entities, and the characters that start emphasis, code, links or a table cell backslashed.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in untrusted(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_text_cannot_break_out() {
        assert_eq!(escape("a|b<script>*x*"), "a\\|b&lt;script&gt;\\*x\\*");
        assert_eq!(escape("zone\u{1b}[2J"), "zone\\\\u{1b}\\[2J");
    }
}
