//! `kubectl topo dump`: what a live read saw, written as one `v1 List` (YAML, or JSON with
//! `-o json`) that `--from-file` reads back; a JSON dump reads back fastest (`source/dump/stream.rs`). With `source/dump.rs` and `render/structured.rs`, one of the only YAML call sites.
//!
//! Items: Nodes, Services, EndpointSlices, Events, then `{apiVersion: kubectl-topo/v1alpha1,
//! kind: ClusterInfo, serverVersion}`. `managedFields` and the last-applied annotation are removed.
//! `--redact` replaces names and addresses consistently (the same input name always becomes the same
//! output name), keeping zones, CPU, conditions and every field the engine reads.

use std::io::Write;

use serde_json::{Map, Value, json};

use crate::settings::DumpFormat;
use crate::source::SourceError;
use crate::source::live::Raw;

mod redact;
use redact::Redactor;

/// `apiVersion` of the ClusterInfo item.
pub const CLUSTER_INFO_API_VERSION: &str = "kubectl-topo/v1alpha1";
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The dump as a JSON value (`v1 List`).
pub fn dump_value(raw: &Raw, redact: bool) -> Value {
    let mut items: Vec<Value> = Vec::new();
    items.extend(raw.nodes.iter().map(|o| with_type(o, "v1", "Node")));
    items.extend(raw.services.iter().map(|o| with_type(o, "v1", "Service")));
    items.extend(raw.slices.iter().map(|o| with_type(o, "discovery.k8s.io/v1", "EndpointSlice")));
    items.extend(raw.events.iter().map(|o| with_type(o, "v1", "Event")));
    items.extend(raw.config_maps.iter().map(|o| with_type(o, "v1", "ConfigMap")));
    for item in &mut items {
        strip(item);
    }
    if redact {
        let mut r = Redactor::default();
        for item in &mut items {
            r.item(item);
        }
    }
    let mut info = json!({"apiVersion": CLUSTER_INFO_API_VERSION, "kind": "ClusterInfo"});
    if let Some(v) = &raw.server_version {
        info["serverVersion"] = Value::String(v.clone());
    }
    // A partly forbidden read replays as what it was: weights unknown, the same notes.
    if raw.nodes_unavailable {
        info["nodesUnavailable"] = Value::Bool(true);
    }
    if !raw.notes.is_empty() {
        info["partial"] = json!(raw.notes);
    }
    items.push(info);
    json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items})
}

/// Write the dump. The outer `Err`: the dump could not be serialised; the inner one: `out` could
/// not be written (the caller's output error, where a closed pipe is no failure).
pub fn write_dump(
    raw: &Raw,
    redact: bool,
    format: DumpFormat,
    out: &mut dyn Write,
) -> Result<std::io::Result<()>, SourceError> {
    let value = dump_value(raw, redact);
    Ok(match format {
        DumpFormat::Yaml => {
            let text = serde_saphyr::to_string(&value).map_err(SourceError::Serialise)?;
            out.write_all(text.as_bytes())
        }
        DumpFormat::Json => {
            let mut buffered = std::io::BufWriter::new(out);
            crate::escape::json::to_writer_pretty(&mut buffered, &value)
                .and_then(|()| buffered.write_all(b"\n"))
                .and_then(|()| buffered.flush())
        }
    })
}

/// List items from the API carry no apiVersion/kind; put them back so the dump reads alone.
fn with_type<T: serde::Serialize>(object: &T, api_version: &str, kind: &str) -> Value {
    let mut v = serde_json::to_value(object).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        let mut ordered = Map::new();
        ordered.insert("apiVersion".into(), Value::String(api_version.into()));
        ordered.insert("kind".into(), Value::String(kind.into()));
        for (k, val) in std::mem::take(map) {
            if k != "apiVersion" && k != "kind" {
                ordered.insert(k, val);
            }
        }
        *map = ordered;
    }
    v
}

fn strip(item: &mut Value) {
    if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
        if let Some(ann) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            ann.remove(LAST_APPLIED);
            if ann.is_empty() {
                meta.remove("annotations");
            }
        }
    }
}

#[cfg(test)]
mod tests;
