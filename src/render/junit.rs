//! `check -o junit`: JUnit XML as CI systems read it (GitLab `artifacts:reports:junit`, GitHub
//! test-report actions, Jenkins). One `<testsuite>` per cluster, one `<testcase>` per Service
//! listed; a Service at the failure level (`--fail-on`, config levels) has a `<failure>` whose
//! message is its verdicts and reason codes and whose text is every reason's sentence with its
//! numbers (the reason's facts as JSON). The reasons of a Service that does not fail, and those
//! set aside by ignore rules, go to `<system-out>`.
//!
//! Written by hand (a dozen elements) rather than through an XML crate; tests/report_formats.rs
//! reads the output back with junitparser.

use std::fmt::Write as _;
use std::io::Write;

use crate::escape::escape as untrusted;
use crate::prose;
use crate::triage::Triaged;
use topo_engine::report::check::CheckRow;
use topo_engine::report::reason::Reason;

/// The document.
pub(crate) fn render(triaged: &Triaged, out: &mut dyn Write) -> std::io::Result<()> {
    let report = &triaged.report;
    let failures = triaged.failing.iter().filter(|f| **f).count();
    let tests = report.services.len();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="kubectl topo check" tests="{tests}" failures="{failures}" errors="0">"#
    )?;
    writeln!(
        out,
        r#"  <testsuite name="kubectl topo check (Kubernetes {})" tests="{tests}" failures="{failures}" errors="0" skipped="0">"#,
        escape(&report.kubernetes_version)
    )?;
    writeln!(out, "    <properties>")?;
    writeln!(
        out,
        r#"      <property name="summary" value="{}"/>"#,
        escape(&prose::check::summary_line(&report.summary))
    )?;
    writeln!(out, "    </properties>")?;
    for (row, failing) in report.services.iter().zip(&triaged.failing) {
        testcase(row, *failing, out)?;
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

fn testcase(row: &CheckRow, failing: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let name = format!("{}/{}", row.service.namespace, row.service.name);
    let open =
        format!(r#"    <testcase classname="{}" name="{}""#, escape(&row.service.namespace), escape(&name));
    // Every reason kept, one line each (the failure's text, or <system-out> when not failing),
    // then the reasons set aside (always <system-out>).
    let mut kept = String::new();
    let mut set_aside = String::new();
    for family in &row.families {
        let head = format!("{} {}", family.address_type, family.verdict);
        for reason in &family.reasons {
            let _ = writeln!(kept, "{head}: {}", line(reason));
        }
        for reason in &family.ignored {
            let _ = writeln!(set_aside, "{head}: ignored by a rule: {}", line(reason));
        }
    }
    // `check --certify`: the certificate, a finding of its own at `--fail-on fragile`.
    for line in row.certificates.as_deref().map(prose::stability::certificate_lines).unwrap_or_default() {
        let _ = writeln!(kept, "{line}");
    }
    if !failing && kept.is_empty() && set_aside.is_empty() {
        return writeln!(out, "{open}/>");
    }
    writeln!(out, "{open}>")?;
    if failing {
        let message: Vec<String> = row
            .families
            .iter()
            .map(|f| {
                let codes: Vec<String> = f.reasons.iter().map(|r| r.code.to_string()).collect();
                format!("{} {}: {}", f.address_type, f.verdict, codes.join(", "))
            })
            .collect();
        let kinds: Vec<String> = row.families.iter().map(|f| f.verdict.to_string()).collect();
        writeln!(
            out,
            r#"      <failure message="{}" type="{}">{}</failure>"#,
            escape(&message.join("; ")),
            kinds.join(","),
            escape(&kept)
        )?;
        kept.clear();
    }
    let system_out = kept + &set_aside;
    if !system_out.is_empty() {
        writeln!(out, "      <system-out>{}</system-out>", escape(&system_out))?;
    }
    writeln!(out, "    </testcase>")
}

/// `CODE: sentence {facts}`.
pub(super) fn line(reason: &Reason) -> String {
    let facts = serde_json::to_string(&reason.facts).unwrap_or_default();
    format!("{}: {} {facts}", reason.code, prose::sentence(reason))
}

/// Text for an attribute or element: line breaks kept, other control characters escaped (XML 1.0
/// cannot carry most of them), then the five XML specials.
pub(super) fn escape(text: &str) -> String {
    let lines: Vec<String> = text.split('\n').map(|l| untrusted(l).into_owned()).collect();
    let mut out = String::with_capacity(text.len());
    for c in lines.join("\n").chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_and_control_characters_are_escaped() {
        assert_eq!(escape(r#"a<b & "c" 'd'>"#), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert!(!escape("x\u{1b}\u{0}y").chars().any(char::is_control));
    }
}
