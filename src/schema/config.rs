//! The JSON Schema of `check`'s config file (`triage::config`; `man 5 kubectl-topo-config`),
//! published next to the report schema as [`PATH`] for editors that validate YAML. Written out
//! here rather than derived: the file is read through spanned values (for line and column in
//! errors), which carry no schema. tests/schema.rs holds the committed file to [`text`] and the
//! documented example, and every config file the tests read, to the schema.

use serde_json::{Value, json};
use strum::VariantArray;
use topo_engine::report::reason::ReasonCode;

/// Where the schema is committed, relative to the repository root.
pub const PATH: &str = "docs/schema/kubectl-topo-config.v1.json";

/// The schema.
pub fn document() -> Value {
    let codes: Vec<&str> = ReasonCode::VARIANTS.iter().map(|c| <&str>::from(*c)).collect();
    let glob = |what: &str| json!({ "type": "string", "description": format!("Shell glob on the Service's {what} (default \"*\").") });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "kubectl-topo config file",
        "description": "check's config file: --config PATH, else $KUBECTL_TOPO_CONFIG, else \
            ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists (man 5 kubectl-topo-config). \
            An empty file has no rules.",
        "type": ["object", "null"],
        "additionalProperties": false,
        "properties": {
            "excludes": {
                "description": "Rules that set reasons aside for the Services they match.",
                "type": ["array", "null"],
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "namespace": glob("namespace"),
                        "name": glob("name"),
                        "reasons": {
                            "description": "The reason codes set aside (default: every reason).",
                            "type": "array",
                            "items": { "$ref": "#/$defs/ReasonCode" }
                        }
                    }
                }
            },
            "levels": {
                "description": "A failure level per reason code: error fails check at any --fail-on but none, \
                    warning never fails by itself, ignore sets the reason aside everywhere.",
                "type": ["object", "null"],
                "propertyNames": { "$ref": "#/$defs/ReasonCode" },
                "additionalProperties": { "enum": ["error", "warning", "ignore"] }
            }
        },
        "$defs": {
            "ReasonCode": {
                "description": format!(
                    "A reason code (check accepts any case; this is the canonical spelling). What each means: \
                     `kubectl topo reasons CODE`, or {}/blob/main/docs/reasons/<CODE>.md.",
                    crate::prose::reference::REPOSITORY
                ),
                "enum": codes
            }
        }
    })
}

/// [`document`] as committed: pretty JSON with a final newline.
pub fn text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("a JSON value serialises");
    text.push('\n');
    text
}
