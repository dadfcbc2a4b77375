//! What one object of a dump is, decided from its `Value`: counted as skipped, or converted into
//! the model (or why not) by [`convert::object`](super::convert::object). Deciding needs no reader
//! state; the [`Reader`](super::Reader) records the results in order (indexes, duplicates, the
//! first error). YAML documents, top-level JSON values and the few List items the JSON reader does
//! not decode straight into lean types (Events, ConfigMaps, nested Lists) come here.

use serde_json::Value;

use super::Inherited;
use super::convert::object::{Decoded, Kind, decode, kind_of, name_of};

/// One object of a dump, decided.
pub(super) enum Outcome {
    /// Not read: counted under this key (`"apps/v1 Deployment"`, `"(not an object)"`).
    Skip(String),
    /// An object of a kind we read, converted.
    Decoded(Decoded),
}

/// Decides `value` found `depth` Lists deep, items of a List first to last, into `out`.
pub(super) fn classify(value: Value, inherited: Inherited<'_>, depth: usize, out: &mut Vec<Outcome>) {
    let Value::Object(mut map) = value else {
        if !value.is_null() {
            out.push(Outcome::Skip("(not an object)".to_string()));
        }
        return;
    };
    let field = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
    let (api_version, kind) = match (field("apiVersion"), field("kind"), inherited) {
        (Some(api_version), Some(kind), _) => (api_version, kind),
        (None, None, Some((api_version, kind))) => (api_version.to_string(), kind.to_string()),
        (api_version, kind, _) => {
            let key = match (api_version, kind) {
                (Some(api_version), None) => format!("{api_version} without kind"),
                (None, Some(kind)) => format!("{kind} without apiVersion"),
                _ => "objects without apiVersion and kind".to_string(),
            };
            out.push(Outcome::Skip(key));
            return;
        }
    };
    if kind.ends_with("List") && depth < 2 {
        match map.remove("items") {
            Some(Value::Array(items)) => {
                let item_kind = kind.trim_end_matches("List");
                let inherited = (kind != "List").then_some((api_version.as_str(), item_kind));
                for item in items {
                    classify(item, inherited, depth + 1, out);
                }
                return;
            }
            Some(other) => drop(map.insert("items".to_string(), other)),
            None => {}
        }
    }
    out.push(match kind_of(&api_version, &kind) {
        Some(kind) => Outcome::Decoded(decode(kind, Value::Object(map))),
        None if (api_version.as_str(), kind.as_str()) == RETIRED => {
            Outcome::Decoded(retired(&Value::Object(map)))
        }
        None => Outcome::Skip(format!("{api_version} {kind}")),
    });
}

/// A `discovery.k8s.io/v1beta1` EndpointSlice: refused, with its name.
pub(super) const RETIRED: (&str, &str) = ("discovery.k8s.io/v1beta1", "EndpointSlice");

/// Skipping these would make every Service look unmanaged: refused, saying how to re-dump.
fn retired(value: &Value) -> Decoded {
    let message = "discovery.k8s.io/v1beta1 is not read (the API served it until Kubernetes 1.25; \
                   1.21+ serves discovery.k8s.io/v1): re-create the dump with \
                   `kubectl get endpointslices.v1.discovery.k8s.io -A -o yaml`";
    Decoded { kind: Kind::EndpointSlice, name: name_of(value), result: Err(message.to_string()) }
}
