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
use strict::MAX_DEPTH;

use super::convert;
use topo_engine::model::{Snapshot, SourceInfo};

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

/// Parses a dump, as `--from-file` reads one (JSON streamed, YAML whole). `origin` names the input
/// in messages and in `snapshot.info.origin`.
pub fn parse_dump(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    read_dump(text.as_bytes(), origin, Some(text.len() as u64))
}

/// The streaming JSON reader on `bytes` through a window of `chunk` bytes (the differential fuzz
/// target holds it to [`read_whole`]).
#[doc(hidden)]
pub fn stream_json(bytes: &[u8], origin: &str, chunk: usize) -> Result<ParsedDump, DumpError> {
    stream::read_in_windows(bytes, origin, chunk)
}

/// The whole-text reader: the whole text as documents, each read into the snapshot. It reads YAML;
/// for JSON it is the reference the streaming reader is held to (same documents accepted, same
/// errors), in tests and in the differential fuzz target.
#[doc(hidden)]
pub fn read_whole(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
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

/// The whole text as JSON documents, in the grammar both JSON readers share ([`strict`]).
fn json_documents(text: &str, origin: &str) -> Result<Vec<Value>, DumpError> {
    let text = text.trim_start_matches('\u{feff}');
    let documents = serde_json::Deserializer::from_str(text).into_iter::<strict::TreeValue>();
    documents.map(|document| document.map(|d| d.0)).collect::<Result<_, _>>().map_err(|err| {
        DumpError::Syntax {
            origin: origin.to_string(),
            format: "JSON",
            line: err.line() as u64,
            column: err.column() as u64,
            message: json_message(&err),
        }
    })
}

/// serde_json's message without the location it appends (we print our own).
fn json_message(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rsplit_once(" at line ") {
        Some((what, _)) => what.to_string(),
        None => message,
    }
}

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
    // Advice for programmers using the parser (which Rust type to use, which option to set) means
    // nothing to someone fixing a dump: say what the dump holds instead.
    if first.contains("; use Option<") {
        return "a null (`~`, `null` or nothing) where text is needed".to_string();
    }
    if first.starts_with("!!binary scalar is not valid UTF-8") {
        return "a !!binary value that is not UTF-8 text where text is needed".to_string();
    }
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

mod error;
pub use error::{DumpError, MAX_JSON_BYTES, MAX_OBJECT_BYTES, MAX_YAML_BYTES};

mod strict;

mod reader;
use reader::{Inherited, Kind, Reader, kind_of};

mod fast;
mod item;

mod input;
pub(crate) use input::read_dump;

mod stream;

#[cfg(test)]
mod tests;
