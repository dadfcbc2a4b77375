//! `simulate --apply -o markdown|junit|sarif`: the change judged for CI, in the formats `check`
//! writes (their escaping and SARIF rules reused): a pull-request comment with one row per Service
//! affected, a JUnit test case per Service (a failure when the change brings it to `--fail-on`),
//! and a SARIF result per reason after the change, located in the manifest file.

use std::fmt::Write as _;
use std::io::Write;

use serde_json::{Value, json};
use strum::VariantArray;
use topo_engine::report::apply::{ApplyReport, ServiceApply};
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::whatif::FamilyDelta;

use super::ApplyContext;
use crate::prose;
use crate::render::{junit, markdown, sarif};

/// `ns/name`.
fn full_name(s: &ServiceApply) -> String {
    format!("{}/{}", s.service.namespace, s.service.name)
}

/// The after families of the explain, in the order of the summary.
fn after_family<'a>(s: &'a ServiceApply, f: &FamilyDelta) -> Option<&'a topo_engine::report::FamilyReport> {
    s.simulation.after.families.iter().find(|a| a.address_type == f.address_type)
}

/// The certificate's summary, or `-` (not in Auto mode after the change).
fn certificate(s: &ServiceApply) -> String {
    s.certificate.as_ref().map_or_else(|| "-".to_string(), prose::stability::certificate_summary)
}

/// The pull-request comment.
pub(super) fn markdown(r: &ApplyReport, context: &ApplyContext, out: &mut dyn Write) -> std::io::Result<()> {
    let esc = markdown::escape;
    writeln!(out, "### kubectl topo simulate --apply\n")?;
    let failing = context.failing.iter().filter(|f| **f).count();
    let summary = prose::apply::summary(r.services.len(), failing, context.fail_on);
    writeln!(out, "{} · Kubernetes {} behaviour\n", esc(&summary), r.kubernetes_version)?;
    let objects: Vec<String> = r.objects.iter().map(prose::apply::object).collect();
    writeln!(out, "Applied: {}\n", esc(&objects.join(", ")))?;
    if r.services.is_empty() {
        return writeln!(out, "No Service affected.");
    }
    writeln!(
        out,
        "| Result | Service | Family | Verdict | Reasons after | Hinted zones | Certificate after |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|")?;
    for (s, failing) in r.services.iter().zip(&context.failing) {
        for f in &s.simulation.summary {
            let reasons: Vec<String> = f.reasons.after.iter().map(|c| format!("`{c}`")).collect();
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                if *failing { "**fail**" } else { "pass" },
                esc(&full_name(s)),
                f.address_type,
                prose::apply::verdicts(s, f),
                if reasons.is_empty() { "-".to_string() } else { reasons.join(", ") },
                prose::apply::hinted_zones(f),
                esc(&certificate(s)),
            )?;
        }
    }
    writeln!(out)?;
    for s in &r.services {
        details(s, out)?;
    }
    Ok(())
}

fn details(s: &ServiceApply, out: &mut dyn Write) -> std::io::Result<()> {
    let esc = markdown::escape;
    writeln!(
        out,
        "<details>\n<summary>{} — {}</summary>\n",
        esc(&full_name(s)),
        prose::apply::causes(&s.causes)
    )?;
    for w in &s.workloads {
        writeln!(out, "- {}", esc(&prose::apply::workload(w)))?;
    }
    for f in &s.simulation.summary {
        let Some(after) = after_family(s, f) else { continue };
        let remedy = prose::remedy(after.reasons.first());
        writeln!(out, "- **{} {}**: {}", f.address_type, prose::apply::verdicts(s, f), esc(&remedy))?;
        // The remedy's "see Replicas below".
        if let Some(n) = after.replicas.as_ref().and_then(|r| r.nearest) {
            writeln!(out, "  - {}", esc(&prose::check::replicas_needed(n)))?;
        }
        for reason in &after.reasons {
            writeln!(out, "  - `{}`: {}", reason.code, esc(&prose::sentence(reason)))?;
        }
    }
    if let Some(c) = &s.certificate {
        writeln!(out, "- Certificate after the change: {}", esc(&prose::stability::certificate_summary(c)))?;
        writeln!(out, "  {}", esc(&prose::stability::certificate_basis(c)))?;
    }
    writeln!(out, "\n</details>\n")
}

/// JUnit XML: one test case per Service affected.
pub(super) fn junit(r: &ApplyReport, context: &ApplyContext, out: &mut dyn Write) -> std::io::Result<()> {
    let esc = junit::escape;
    let failures = context.failing.iter().filter(|f| **f).count();
    let tests = r.services.len();
    let name = "kubectl topo simulate --apply";
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(out, r#"<testsuites name="{name}" tests="{tests}" failures="{failures}" errors="0">"#)?;
    writeln!(
        out,
        r#"  <testsuite name="{name} (Kubernetes {})" tests="{tests}" failures="{failures}" errors="0" skipped="0">"#,
        esc(&r.kubernetes_version)
    )?;
    for (s, failing) in r.services.iter().zip(&context.failing) {
        let open = format!(
            r#"    <testcase classname="{}" name="{}""#,
            esc(&s.service.namespace),
            esc(&full_name(s))
        );
        let mut text = String::new();
        for f in &s.simulation.summary {
            let head = format!("{} {}", f.address_type, prose::apply::verdicts(s, f));
            for reason in after_family(s, f).map(|a| a.reasons.as_slice()).unwrap_or_default() {
                let _ = writeln!(text, "{head}: {}", junit::line(reason));
            }
        }
        if let Some(c) = &s.certificate {
            let _ = writeln!(text, "certificate: {}", prose::stability::certificate_summary(c));
        }
        writeln!(out, "{open}>")?;
        if *failing {
            let message: Vec<String> = s
                .simulation
                .summary
                .iter()
                .map(|f| format!("{} {}", f.address_type, prose::apply::verdicts(s, f)))
                .collect();
            let kind = prose::apply::level(context.fail_on);
            writeln!(
                out,
                r#"      <failure message="{}" type="{kind}">{}</failure>"#,
                esc(&message.join("; ")),
                esc(&text)
            )?;
        } else if !text.is_empty() {
            writeln!(out, "      <system-out>{}</system-out>", esc(&text))?;
        }
        writeln!(out, "    </testcase>")?;
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// SARIF 2.1.0: one result per reason after the change, `error` when the Service fails the gate.
pub(super) fn sarif(r: &ApplyReport, context: &ApplyContext, out: &mut dyn Write) -> std::io::Result<()> {
    let mut results = Vec::new();
    for (s, failing) in r.services.iter().zip(&context.failing) {
        for f in &s.simulation.summary {
            let Some(after) = after_family(s, f) else { continue };
            for reason in &after.reasons {
                let index = ReasonCode::VARIANTS.iter().position(|c| *c == reason.code).unwrap_or_default();
                let text = format!(
                    "{} {} {}: {}",
                    full_name(s),
                    f.address_type,
                    prose::apply::verdicts(s, f),
                    prose::sentence(reason)
                );
                let mut location = json!({
                    "logicalLocations": [{ "name": s.service.name, "fullyQualifiedName": full_name(s), "kind": "resource" }],
                });
                if let Some(file) = &context.file {
                    location["physicalLocation"] =
                        json!({ "artifactLocation": { "uri": sarif::uri(file), "index": 0 } });
                }
                results.push(json!({
                    "ruleId": reason.code.to_string(),
                    "ruleIndex": index,
                    "level": if *failing { "error" } else { "warning" },
                    "message": { "text": text },
                    "locations": [location],
                    "properties": { "verdict": f.verdict, "addressType": f.address_type, "facts": reason.facts },
                }));
            }
        }
    }
    let mut run: Value = json!({
        "tool": { "driver": {
            "name": "kubectl-topo",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": prose::reference::REPOSITORY,
            "rules": ReasonCode::VARIANTS.iter().map(|c| sarif::rule(*c)).collect::<Vec<_>>(),
        }},
        "results": results,
    });
    if let Some(file) = &context.file {
        run["artifacts"] = json!([{ "location": { "uri": sarif::uri(file) } }]);
    }
    let log = json!({ "$schema": sarif::SCHEMA, "version": "2.1.0", "runs": [run] });
    crate::escape::json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}
