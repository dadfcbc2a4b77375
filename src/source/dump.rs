//! Reads a saved cluster dump into a [`Snapshot`]: `kubectl get nodes,services,endpointslices,events
//! -A -o yaml|json` output (a `v1 List`), typed lists (`NodeList`, …), multi-document YAML, or a
//! single object, plus our own `kubectl-topo/v1alpha1 ClusterInfo` item. Objects are dispatched
//! on apiVersion + kind, decoded into k8s-openapi types (so wrong field types are reported with
//! their path) and converted by [`super::convert`]. Other kinds are counted, not read.
//!
//! With `render/structured.rs`, this is the only YAML call site (serde-saphyr).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::convert;
use crate::model::{Snapshot, SourceInfo};

/// `apiVersion` of the [`ClusterInfo`] item that `kubectl topo dump` writes.
pub const CLUSTER_INFO_API_VERSION: &str = "kubectl-topo/v1alpha1";
/// `kind` of the [`ClusterInfo`] item.
pub const CLUSTER_INFO_KIND: &str = "ClusterInfo";

/// Facts about the dumped cluster that no Kubernetes object carries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInfo {
    /// Server `gitVersion`, e.g. `v1.36.2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_version: Option<String>,
    /// True when the Nodes could not be listed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nodes_unavailable: bool,
    /// Notes about data that could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<String>,
}

/// A dump, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedDump {
    /// Nodes, Services, EndpointSlices and Events in source order; `info.origin` is the origin.
    pub snapshot: Snapshot,
    /// Objects not read, by `"<apiVersion> <kind>"` (e.g. `"apps/v1 Deployment"`).
    pub skipped: BTreeMap<String, usize>,
    /// Server version recorded by a `ClusterInfo` item.
    pub server_version: Option<String>,
}

/// Why a dump could not be read. Each message is one line: what, where, what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    /// The input holds no objects at all.
    #[error(
        "{origin}: the dump is empty; pass the output of `kubectl topo dump` or `kubectl get nodes,services,endpointslices,events -A -o yaml`"
    )]
    Empty {
        /// Where the text came from.
        origin: String,
    },
    /// Not valid YAML/JSON.
    #[error(
        "{origin}:{line}:{column}: invalid {format}: {message}; fix the file or re-create it with `kubectl topo dump`"
    )]
    Syntax {
        /// Where the text came from.
        origin: String,
        /// `YAML` or `JSON`.
        format: &'static str,
        /// 1-based line (0 when unknown).
        line: u64,
        /// 1-based column (0 when unknown).
        column: u64,
        /// The parser's message.
        message: String,
    },
    /// One object of a kind we read could not be decoded.
    #[error("{origin}: item {index}: {kind} {name:?}: {message}; fix or remove that object")]
    Item {
        /// Where the text came from.
        origin: String,
        /// 0-based position among all objects of the dump (list items flattened).
        index: usize,
        /// Lower-case kind, e.g. `node`.
        kind: String,
        /// `metadata.name` (empty when absent).
        name: String,
        /// The field and what is wrong with it.
        message: String,
    },
    /// Objects were found, but none of the kinds we read.
    #[error("{origin}: no Nodes, Services, EndpointSlices or Events (found {}); dump them with `kubectl get nodes,services,endpointslices,events -A -o yaml`", describe(.skipped))]
    NoUsableObjects {
        /// Where the text came from.
        origin: String,
        /// What was found instead.
        skipped: BTreeMap<String, usize>,
    },
}

fn describe(skipped: &BTreeMap<String, usize>) -> String {
    let parts: Vec<String> = skipped.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
    parts.join(", ")
}

/// Parses a dump. `origin` names the input in messages and in `snapshot.info.origin`.
pub fn parse_dump(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    if looks_like_json(text) {
        let mut reader = Reader::new(origin);
        if let Some(result) = fast::read_list(text.trim_start_matches('\u{feff}'), &mut reader) {
            result?;
            return reader.finish();
        }
    }
    let documents =
        if looks_like_json(text) { json_documents(text, origin)? } else { yaml_documents(text, origin)? };
    let mut reader = Reader::new(origin);
    for document in documents {
        reader.read(document, None, 0)?;
    }
    reader.finish()
}

fn looks_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '['])
}

fn json_documents(text: &str, origin: &str) -> Result<Vec<Value>, DumpError> {
    let text = text.trim_start_matches('\u{feff}');
    serde_json::Deserializer::from_str(text).into_iter::<Value>().collect::<Result<_, _>>().map_err(|err| {
        let message = err.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_string();
        DumpError::Syntax {
            origin: origin.to_string(),
            format: "JSON",
            line: err.line() as u64,
            column: err.column() as u64,
            message,
        }
    })
}

/// Deepest YAML nesting accepted (Kubernetes objects need about 15 levels).
const MAX_DEPTH: usize = 64;

/// Limits sized for dumps: generous for real clusters (a 20 MB dump needs a few million events),
/// tight on aliases, which `kubectl` never writes, so alias bombs fail fast.
fn yaml_options(text: &str) -> serde_saphyr::Options {
    let scale = text.len().max(1 << 20);
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_events: scale,
            max_nodes: scale,
            max_documents: scale,
            max_total_scalar_bytes: scale,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_recorded_anchor_events: 100_000,
            max_depth: MAX_DEPTH,
        },
        // YAML 1.2 core schema, as Kubernetes JSON semantics expect: `n`/`no`/`on` stay strings,
        // `0755` stays a string.
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        with_snippet: false,
        // Comments are never needed; emitting them makes the parser buffer comment events while
        // it looks ahead, and a block of 33+ comment lines before a sequence then fails.
        emit_comments: false,
    }
}

fn yaml_documents(text: &str, origin: &str) -> Result<Vec<Value>, DumpError> {
    serde_saphyr::from_multiple_with_options::<Value>(text, yaml_options(text)).map_err(|err| {
        let location = err.location();
        DumpError::Syntax {
            origin: origin.to_string(),
            format: "YAML",
            line: location.as_ref().map_or(0, |l| l.line()),
            column: location.as_ref().map_or(0, |l| l.column()),
            message: one_line(&err.to_string()),
        }
    })
}

/// First line of a parser message, without its location (we print our own) or advice meant for
/// programmers; budget breaches become a sentence.
fn one_line(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let first = first.split(" at line ").next().unwrap_or(first);
    let first = first.split(", set DuplicateKeyPolicy").next().unwrap_or(first);
    match first.strip_prefix("budget breached: ") {
        Some(what) if what.starts_with("Depth") => format!("nested deeper than {MAX_DEPTH} levels"),
        Some(what) if what.contains("Alias") || what.contains("Anchor") => {
            "too many YAML anchors/aliases (an alias bomb?); kubectl never writes them".to_string()
        }
        Some(what) => {
            let limit = what.split([' ', '{']).next().unwrap_or(what);
            format!("exceeds the reader's limits ({limit})")
        }
        None => first.trim_end_matches('.').to_string(),
    }
}

/// Object kinds we read.
#[derive(Clone, Copy)]
enum Kind {
    Node,
    Service,
    EndpointSlice,
    CoreEvent,
    EventsV1Event,
    ConfigMap,
    ClusterInfo,
}

fn kind_of(api_version: &str, kind: &str) -> Option<Kind> {
    Some(match (api_version, kind) {
        ("v1", "Node") => Kind::Node,
        ("v1", "Service") => Kind::Service,
        ("discovery.k8s.io/v1", "EndpointSlice") => Kind::EndpointSlice,
        ("v1", "Event") => Kind::CoreEvent,
        ("events.k8s.io/v1", "Event") => Kind::EventsV1Event,
        ("v1", "ConfigMap") => Kind::ConfigMap,
        (CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND) => Kind::ClusterInfo,
        _ => return None,
    })
}

/// Accumulates objects in source order.
struct Reader<'a> {
    origin: &'a str,
    snapshot: Snapshot,
    skipped: BTreeMap<String, usize>,
    info: ClusterInfo,
    index: usize,
}

/// `(apiVersion, kind)` that items of a typed list (`NodeList`) inherit when they omit them.
type Inherited<'v> = Option<(&'v str, &'v str)>;

impl<'a> Reader<'a> {
    fn new(origin: &'a str) -> Self {
        Reader {
            origin,
            snapshot: Snapshot::default(),
            skipped: BTreeMap::new(),
            info: ClusterInfo::default(),
            index: 0,
        }
    }

    fn read(&mut self, value: Value, inherited: Inherited<'_>, depth: usize) -> Result<(), DumpError> {
        let Value::Object(mut map) = value else {
            if !value.is_null() {
                self.skip("(not an object)");
            }
            return Ok(());
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
                self.skip(&key);
                return Ok(());
            }
        };
        if kind.ends_with("List") && depth < 2 {
            match map.remove("items") {
                Some(Value::Array(items)) => {
                    let item_kind = kind.trim_end_matches("List");
                    let inherited = (kind != "List").then_some((api_version.as_str(), item_kind));
                    for item in items {
                        self.read(item, inherited, depth + 1)?;
                    }
                    return Ok(());
                }
                Some(other) => drop(map.insert("items".to_string(), other)),
                None => {}
            }
        }
        match kind_of(&api_version, &kind) {
            Some(kind) => self.decode(kind, Value::Object(map)),
            None if (api_version.as_str(), kind.as_str())
                == ("discovery.k8s.io/v1beta1", "EndpointSlice") =>
            {
                Err(self.retired_slice_version(&map))
            }
            None => {
                self.skip(&format!("{api_version} {kind}"));
                Ok(())
            }
        }
    }

    /// Skipping these would make every Service look unmanaged: refuse, saying how to re-dump.
    fn retired_slice_version(&self, map: &serde_json::Map<String, Value>) -> DumpError {
        let name = map.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str);
        DumpError::Item {
            origin: self.origin.to_string(),
            index: self.index,
            kind: "endpointslice".to_string(),
            name: name.unwrap_or("").to_string(),
            message: "discovery.k8s.io/v1beta1 is not read (the API served it until Kubernetes 1.25; \
                      1.21+ serves discovery.k8s.io/v1): re-create the dump with \
                      `kubectl get endpointslices.v1.discovery.k8s.io -A -o yaml`"
                .to_string(),
        }
    }

    fn skip(&mut self, key: &str) {
        *self.skipped.entry(key.to_string()).or_default() += 1;
        self.index += 1;
    }

    /// Decodes one object straight from its JSON text; false (and nothing recorded) when it does
    /// not decode, so the caller can fall back to [`Reader::read`] for the exact message.
    fn decode_text(&mut self, kind: Kind, raw: &str) -> bool {
        fn typed<T: serde::de::DeserializeOwned>(raw: &str) -> Option<T> {
            serde_json::from_str(raw).ok()
        }
        let s = &mut self.snapshot;
        let decoded = match kind {
            Kind::Node => typed(raw).and_then(|n| convert::node_from(&n).ok()).map(|n| s.nodes.push(n)),
            Kind::Service => typed(raw).map(|v| s.services.push(convert::service_from(&v))),
            Kind::EndpointSlice => typed(raw).map(|v| s.slices.push(convert::slice_from(&v))),
            Kind::CoreEvent => typed(raw).map(|v| s.events.push(convert::event_from_core(&v))),
            Kind::EventsV1Event => typed(raw).map(|v| s.events.push(convert::event_from_events_v1(&v))),
            Kind::ClusterInfo => typed::<ClusterInfo>(raw).map(|info| self.info = info),
            // Rare and small: the general reader handles it.
            Kind::ConfigMap => None,
        };
        if decoded.is_some() {
            self.index += 1;
        }
        decoded.is_some()
    }

    fn decode(&mut self, kind: Kind, value: Value) -> Result<(), DumpError> {
        let name = value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
        let named = matches!(kind, Kind::Node | Kind::Service | Kind::EndpointSlice);
        let result = match kind {
            // The API server never stores one; rows and messages would name nothing.
            _ if named && value.pointer("/metadata/name").is_none() => {
                Err("metadata.name is missing".to_string())
            }
            Kind::Node => typed(value)
                .and_then(|node| convert::node_from(&node).map_err(|e| e.to_string()))
                .map(|node| self.snapshot.nodes.push(node)),
            Kind::Service => typed(value).map(|s| self.snapshot.services.push(convert::service_from(&s))),
            Kind::EndpointSlice => typed(value).map(|s| self.snapshot.slices.push(convert::slice_from(&s))),
            Kind::CoreEvent => typed(value).map(|e| self.snapshot.events.push(convert::event_from_core(&e))),
            Kind::EventsV1Event => {
                typed(value).map(|e| self.snapshot.events.push(convert::event_from_events_v1(&e)))
            }
            // Only kube-system/cilium-config is read; other ConfigMaps are counted as skipped.
            Kind::ConfigMap => typed(value).map(|cm| match convert::cilium_from(&cm) {
                Some(cilium) => self.snapshot.data_plane.cilium = Some(cilium),
                None => *self.skipped.entry("v1 ConfigMap".to_string()).or_default() += 1,
            }),
            Kind::ClusterInfo => typed::<ClusterInfo>(value).map(|info| self.info = info),
        };
        let index = self.index;
        self.index += 1;
        result.map_err(|message| DumpError::Item {
            origin: self.origin.to_string(),
            index,
            kind: kind_label(kind).to_string(),
            name,
            message,
        })
    }

    fn finish(self) -> Result<ParsedDump, DumpError> {
        let Reader { origin, mut snapshot, skipped, info, index } = self;
        let usable =
            snapshot.nodes.len() + snapshot.services.len() + snapshot.slices.len() + snapshot.events.len();
        if usable == 0 {
            return Err(if skipped.is_empty() && index == 0 {
                DumpError::Empty { origin: origin.to_string() }
            } else {
                DumpError::NoUsableObjects { origin: origin.to_string(), skipped }
            });
        }
        snapshot.info = SourceInfo {
            origin: origin.to_string(),
            server_version: info.server_version.clone(),
            nodes_unavailable: info.nodes_unavailable,
            partial: info.partial,
        };
        Ok(ParsedDump { snapshot, skipped, server_version: info.server_version })
    }
}

fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Node => "node",
        Kind::Service => "service",
        Kind::EndpointSlice => "endpointslice",
        Kind::CoreEvent | Kind::EventsV1Event => "event",
        Kind::ConfigMap => "configmap",
        Kind::ClusterInfo => "clusterinfo",
    }
}

/// Decodes into a typed object; the message names the offending field path.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        if path == "." { inner } else { format!("{path}: {inner}") }
    })
}

mod fast;

#[cfg(test)]
mod tests;
