//! `check -o sarif`: SARIF 2.1.0 for code-scanning uploads. One rule per reason code (every code,
//! so rule indexes are stable), described and helped with the words of `prose`; one result per
//! reason of each Service family listed, at level `error` when the Service fails `check`, else
//! `warning` (`note` for an Active family). A result is located in the dump file when one was
//! read (an artifact, and the line where the Service starts when the reader knew it) and always
//! logically at `namespace/name`. Reasons set aside by ignore rules stay, with an external suppression. Every
//! URL is the repository's (Cargo.toml `repository`): the tool's home and each rule's reference page.

use std::io::Write;

use serde_json::{Value, json};
use strum::VariantArray;
use topo_engine::report::Verdict;
use topo_engine::report::check::{CheckFamily, CheckRow};
use topo_engine::report::reason::{Reason, ReasonCode};

use super::CheckContext;
use crate::prose;
use crate::triage::Triaged;

/// The schema every SARIF 2.1.0 log names.
pub(super) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The log.
pub(crate) fn render(triaged: &Triaged, context: &CheckContext, out: &mut dyn Write) -> std::io::Result<()> {
    let mut results = Vec::new();
    for (row, failing) in triaged.report.services.iter().zip(&triaged.failing) {
        for family in &row.families {
            let level = level(family, *failing);
            for reason in &family.reasons {
                results.push(result(row, family, reason, level, context, false));
            }
            for reason in &family.ignored {
                results.push(result(row, family, reason, level, context, true));
            }
        }
    }
    let mut run = json!({
        "tool": { "driver": {
            "name": "kubectl-topo",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": prose::reference::REPOSITORY,
            "rules": ReasonCode::VARIANTS.iter().map(|c| rule(*c)).collect::<Vec<_>>(),
        }},
        "results": results,
    });
    if let Some(file) = &context.file {
        run["artifacts"] = json!([{ "location": { "uri": uri(file) } }]);
    }
    let log = json!({ "$schema": SCHEMA, "version": "2.1.0", "runs": [run] });
    crate::escape::json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

fn level(family: &CheckFamily, failing: bool) -> &'static str {
    match (failing, family.verdict) {
        (true, _) => "error",
        (false, Verdict::Active) => "note",
        (false, _) => "warning",
    }
}

pub(super) fn rule(code: ReasonCode) -> Value {
    let bare = Reason::new(code);
    let short = prose::safeguard(code).map_or_else(|| code.to_string(), str::to_string);
    json!({
        "id": code.to_string(),
        "name": code.to_string(),
        "shortDescription": { "text": short },
        "fullDescription": { "text": prose::sentence(&bare) },
        "help": { "text": prose::remedy(Some(&bare)) },
        "helpUri": prose::reference::page_url(code),
    })
}

fn result(
    row: &CheckRow,
    family: &CheckFamily,
    reason: &Reason,
    level: &str,
    context: &CheckContext,
    ignored: bool,
) -> Value {
    let index = ReasonCode::VARIANTS.iter().position(|c| *c == reason.code).unwrap_or_default();
    let name = format!("{}/{}", row.service.namespace, row.service.name);
    let mut location = json!({
        "logicalLocations": [{ "name": row.service.name, "fullyQualifiedName": name, "kind": "resource" }],
    });
    if let Some(file) = &context.file {
        location["physicalLocation"] = json!({ "artifactLocation": { "uri": uri(file), "index": 0 } });
        if let Some(line) = context.lines.get(&row.service) {
            location["physicalLocation"]["region"] = json!({ "startLine": line });
        }
    }
    let text = format!("{name} {} {}: {}", family.address_type, family.verdict, prose::sentence(reason));
    let mut result = json!({
        "ruleId": reason.code.to_string(),
        "ruleIndex": index,
        "level": if ignored { "note" } else { level },
        "message": { "text": text },
        "locations": [location],
        "properties": { "verdict": family.verdict, "addressType": family.address_type, "facts": reason.facts },
    });
    // `check --certify`: the Service's certificate rides along with each of its results.
    if let Some(c) = row.certificates.as_deref() {
        result["properties"]["certificate"] = json!(prose::stability::certificate_lines(c));
    }
    if ignored {
        result["suppressions"] =
            json!([{ "kind": "external", "justification": prose::check::IGNORED_BY_RULE }]);
    }
    result
}

/// A path as a relative URI reference: `/` kept, everything but unreserved characters
/// percent-encoded (byte by byte).
pub(super) fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("examples/demo-cluster.yaml"), "examples/demo-cluster.yaml");
        assert_eq!(uri("my dumps/ü.yaml"), "my%20dumps/%C3%BC.yaml");
    }
}
