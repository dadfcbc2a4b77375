//! Reads a saved cluster dump into a [`Snapshot`]: `kubectl get … -A -o yaml|json` output (a `v1
//! List`), typed lists (`NodeList`, …), multi-document YAML or one object, and our own
//! `kubectl-topo/v1alpha1 ClusterInfo` item. Objects are converted by [`convert::object`], other
//! kinds counted. JSON is read in one pass ([`json`]); YAML in kubectl's block style is rewritten
//! into JSON for the same reader ([`yaml`]), other YAML is parsed by serde-saphyr.

use std::collections::BTreeMap;

use super::convert;
use convert::object::json_message;
pub use convert::object::{CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND, ClusterInfo};
use topo_engine::model::{Snapshot, SourceInfo};

/// A dump, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedDump {
    /// Nodes, Services, EndpointSlices and Events in source order; `info.origin` is the origin,
    /// `info.server_version` what a `ClusterInfo` item recorded.
    pub snapshot: Snapshot,
    /// Objects not read, by `"<apiVersion> <kind>"` (e.g. `"apps/v1 Deployment"`).
    pub skipped: BTreeMap<String, usize>,
}

/// Parses a dump, as `--from-file` reads one. `origin` names the input in messages and in
/// `snapshot.info.origin`.
pub fn parse_dump(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    read_dump(text.as_bytes(), origin, Some(text.len() as u64))
}

mod error;
pub use error::{DumpError, MAX_JSON_BYTES, MAX_OBJECT_BYTES, MAX_YAML_BYTES};

mod reader;
use reader::{Inherited, Outcome, Reader, classify, list_items};

mod json;
mod yaml;
/// Every document of a YAML dump as a `serde_json::Value`, parsed whole within the dump's limits
/// (the whole-text path; `dump -f` without `--redact` converts with it).
pub(crate) use yaml::documents as yaml_documents;
/// The limits `--from-file` parses YAML with, for a text of this size (the parse-only benchmark
/// floor parses with the same, so it measures what `check` does).
pub use yaml::options as yaml_options;

mod ahead;
mod input;
pub use input::read_dump;

pub(crate) use input::read_dump_file;

#[cfg(test)]
mod tests;
