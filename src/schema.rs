//! The JSON Schema of every `-o json|yaml` document (`apiVersion: kubectl-topo/v1alpha1`),
//! generated from the very types that are serialised, with reasons as [`ReasonView`] (code, facts
//! and words). Published as [`PATH`]; `cargo xtask schema` rewrites it, and tests/schema.rs fails
//! when it differs from what the types generate or when a real output does not validate.

pub mod config;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Value, json};
use topo_engine::report::watch::ServiceChange;
use topo_engine::report::whatif::SimulationReport;
use topo_engine::report::{API_VERSION, CheckReport, Envelope, Kind, ServiceReport, ZoneReport};

use crate::prose::ReasonView;
use crate::render::clusters::CheckReportList;
use crate::render::explain::ServiceReportList;
use crate::version::VersionReport;

/// Where the schema is committed, relative to the repository root.
pub const PATH: &str = "docs/schema/kubectl-topo.v1alpha1.json";

/// `kind` and a `$ref` to its envelope's definition.
fn envelope<T: Kind + JsonSchema + 'static>(generator: &mut SchemaGenerator) -> (&'static str, Value) {
    (T::KIND, generator.subschema_for::<Envelope<'static, T>>().to_value())
}

/// The schema: any envelope, checked against the definition its `kind` names (`if`/`then`, so a
/// validator reports the path inside that kind rather than "matches none of oneOf").
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let kinds = [
        envelope::<ServiceReport<ReasonView>>(&mut generator),
        envelope::<CheckReport<ReasonView>>(&mut generator),
        envelope::<ZoneReport<ReasonView>>(&mut generator),
        envelope::<SimulationReport<ReasonView>>(&mut generator),
        envelope::<ServiceChange<ReasonView>>(&mut generator),
        envelope::<VersionReport>(&mut generator),
        envelope::<CheckReportList>(&mut generator),
        envelope::<ServiceReportList>(&mut generator),
        envelope::<topo_engine::report::stability::CertificateReport>(&mut generator),
        envelope::<topo_engine::report::apply::ApplyReport<ReasonView>>(&mut generator),
    ];
    let names: Vec<&str> = kinds.iter().map(|(kind, _)| *kind).collect();
    let by_kind: Vec<Value> = kinds
        .into_iter()
        .map(|(kind, reference)| {
            json!({ "if": { "properties": { "kind": { "const": kind } }, "required": ["kind"] }, "then": reference })
        })
        .collect();
    let mut definitions = generator.take_definitions(true);
    if let Some(code) = definitions.get_mut("ReasonCode") {
        code["description"] = json!(format!(
            "A reason code. What each means, the upstream rule behind it and how to fix it: \
             `kubectl topo reasons CODE`, or {}/blob/main/docs/reasons/<CODE>.md.",
            crate::prose::reference::REPOSITORY
        ));
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": API_VERSION,
        "description": "A document printed by `kubectl topo … -o json|yaml` (one per line for `watch -o json`). \
            Fields are additive within this apiVersion (a consumer should ignore fields it does not know), \
            but for the renames of this alpha version listed in docs/json-migration.md.",
        "type": "object",
        "properties": {
            "apiVersion": { "const": API_VERSION },
            "kind": { "enum": names },
        },
        "required": ["apiVersion", "kind"],
        "allOf": by_kind,
        "$defs": definitions,
    })
}

/// [`document`] as committed: pretty JSON with a final newline.
pub fn text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("a JSON value serialises");
    text.push('\n');
    text
}
