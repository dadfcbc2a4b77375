//! `kubectl topo dump`: what a live read saw, written as one `v1 List` (YAML, or JSON with
//! `-o json`) that `--from-file` reads back; a JSON dump reads back fastest (`source/dump/json.rs`).
//!
//! Items: Nodes, Services, EndpointSlices, Events, then `{apiVersion: kubectl-topo/v1alpha1,
//! kind: ClusterInfo, serverVersion}`. `managedFields` and the last-applied annotation are removed.
//! `--redact` writes instead only what the engine reads, from the Snapshot (`redact.rs`), with names
//! and addresses replaced consistently (the same input name always becomes the same output name);
//! it works on a live read and on any dump `--from-file` reads.

use std::collections::BTreeMap;
use std::io::Write;

use serde_json::{Map, Value, json};

use crate::source::SourceError;
use crate::source::dump::{CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND};
use crate::source::live::Raw;
use topo_engine::model::{OptionalObject, ReadStatus, Snapshot};

pub(crate) mod convert;
mod redact;

/// How `dump` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpFormat {
    /// YAML, like `kubectl get -o yaml` (the default).
    Yaml,
    /// JSON, like `kubectl get -o json`: `--from-file` streams it back, many times faster.
    Json,
}

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// What `dump` writes: the objects a live read returned, or a Snapshot redacted.
#[derive(Debug, Clone, Copy)]
pub(crate) enum DumpInput<'a> {
    /// The objects as the API returned them (`managedFields` and the last-applied annotation removed).
    Raw(&'a Raw),
    /// Only what the engine reads, pseudonymised (`--redact`; from a live read or any dump).
    Redacted(&'a Snapshot),
}

/// The dump as a JSON value (`v1 List`).
pub(crate) fn dump_value(input: DumpInput<'_>) -> Value {
    let (mut items, info) = match input {
        DumpInput::Raw(raw) => {
            let mut info = info_of(raw.server_version.as_ref(), raw.nodes_unavailable, &raw.notes);
            record_reads(&mut info, &raw.reads);
            record_workload_reads(&mut info, &raw.workloads);
            let mut items = raw_items(raw);
            items
                .extend(crate::source::convert::workload::items(&raw.workloads, &|_, name| name.to_string()));
            (items, info)
        }
        DumpInput::Redacted(snapshot) => {
            let (items, notes) = redact::items(snapshot);
            let info = &snapshot.info;
            let mut info = info_of(info.server_version.as_ref(), info.nodes_unavailable, &notes);
            record_reads(&mut info, &snapshot.data_plane.reads);
            record_workload_reads(&mut info, &snapshot.workloads);
            (items, info)
        }
    };
    items.push(info);
    json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items})
}

fn raw_items(raw: &Raw) -> Vec<Value> {
    let mut items: Vec<Value> = Vec::new();
    items.extend(raw.nodes.iter().map(|o| with_type(o, "v1", "Node")));
    items.extend(raw.services.iter().map(|o| with_type(o, "v1", "Service")));
    items.extend(raw.slices.iter().map(|o| with_type(o, "discovery.k8s.io/v1", "EndpointSlice")));
    items.extend(raw.events.iter().map(|o| with_type(o, "v1", "Event")));
    items.extend(raw.config_maps.iter().map(|o| with_type(o, "v1", "ConfigMap")));
    items.extend(raw.daemon_sets.iter().map(|o| with_type(o, "apps/v1", "DaemonSet")));
    items.extend(crate::source::convert::frontdoor::items(&raw.front_doors, &|_, name| name.to_string()));
    for item in &mut items {
        strip(item);
    }
    items
}

/// The ClusterInfo item: the facts no Kubernetes object carries.
fn info_of(server_version: Option<&String>, nodes_unavailable: bool, notes: &[String]) -> Value {
    let mut info = json!({"apiVersion": CLUSTER_INFO_API_VERSION, "kind": CLUSTER_INFO_KIND});
    if let Some(v) = server_version {
        info["serverVersion"] = Value::String(v.clone());
    }
    // A partly forbidden read replays as what it was: weights unknown, the same notes.
    if nodes_unavailable {
        info["nodesUnavailable"] = Value::Bool(true);
    }
    if !notes.is_empty() {
        info["partial"] = json!(notes);
    }
    info
}

/// The optional reads that found nothing (absent, forbidden, failed), so that the dump replays
/// them as such instead of "not in the dump" (`convert::optional`).
fn record_reads(info: &mut Value, reads: &BTreeMap<OptionalObject, ReadStatus>) {
    let recorded = crate::source::convert::optional::recorded(reads);
    if !recorded.is_empty() {
        info["optionalReads"] = json!(recorded);
    }
}

/// The workload reads that found nothing (forbidden, failed, absent), replayed as such
/// (`convert::workload`).
fn record_workload_reads(info: &mut Value, workloads: &topo_engine::model::Workloads) {
    let recorded = crate::source::convert::workload::recorded(workloads);
    if !recorded.is_empty() {
        info["workloadReads"] = json!(recorded);
    }
}

/// Write the dump. The outer `Err`: the dump could not be serialised; the inner one: `out` could
/// not be written (the caller's output error, where a closed pipe is no failure).
pub(crate) fn write_dump(
    input: DumpInput<'_>,
    format: DumpFormat,
    out: &mut dyn Write,
) -> Result<std::io::Result<()>, SourceError> {
    write_value(&dump_value(input), format, out)
}

/// `dump -f` as it is ([`convert::read_narrowed`]) as `format`.
pub(crate) fn write_converted(
    value: &Value,
    format: DumpFormat,
    out: &mut dyn Write,
) -> Result<std::io::Result<()>, SourceError> {
    write_value(value, format, out)
}

/// `value` as `format` (through the escaping writers); the outer error is the YAML writer's.
fn write_value(
    value: &Value,
    format: DumpFormat,
    out: &mut dyn Write,
) -> Result<std::io::Result<()>, SourceError> {
    Ok(match format {
        DumpFormat::Yaml => {
            let text = crate::escape::yaml::to_string(value).map_err(SourceError::Serialise)?;
            out.write_all(text.as_bytes())
        }
        DumpFormat::Json => {
            let mut buffered = std::io::BufWriter::new(out);
            crate::escape::json::to_writer_pretty(&mut buffered, value)
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
