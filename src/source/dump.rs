//! Reads a saved cluster dump into a [`Snapshot`]: `kubectl get nodes,services,endpointslices,events
//! -A -o yaml|json` output (a `v1 List`), typed lists (`NodeList`, …), multi-document YAML, or a
//! single object, plus our own `kubectl-topo/v1alpha1 ClusterInfo` item. Objects are dispatched
//! on apiVersion + kind: Nodes, Services and EndpointSlices are decoded into the lean types of
//! [`super::convert::lean`], Events and the ConfigMaps of the optional reads (`convert::optional`) into k8s-openapi types (wrong
//! field types are reported with their path), and converted by [`super::convert`]. Other kinds are
//! counted, not read.
//!
//! JSON is read in one pass ([`json`]); YAML in kubectl's block style is rewritten into JSON line
//! by line and read by the same reader ([`yaml`]), other YAML is parsed by serde-saphyr.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// The optional reads that found nothing when the dump was made (absent, forbidden, failed):
    /// replayed as such instead of "not in the dump".
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub optional_reads: BTreeMap<topo_engine::model::OptionalObject, topo_engine::model::ReadStatus>,
    /// The workload reads that found nothing when the dump was made (forbidden, failed): replayed
    /// as such instead of "not in the dump".
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub workload_reads: BTreeMap<topo_engine::model::WorkloadObject, topo_engine::model::ReadStatus>,
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

/// Parses a dump, as `--from-file` reads one. `origin` names the input in messages and in
/// `snapshot.info.origin`.
pub fn parse_dump(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    read_dump(text.as_bytes(), origin, Some(text.len() as u64))
}

/// serde_json's message without the location it appends (we print our own).
fn json_message(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rsplit_once(" at line ") {
        // Its limit on values built (a skipped value may nest deeper: it is skipped without recursion).
        Some(("recursion limit exceeded", _)) => "nested deeper than 127 levels".to_string(),
        Some((what, _)) => what.to_string(),
        None => message,
    }
}

mod error;
pub use error::{DumpError, MAX_JSON_BYTES, MAX_OBJECT_BYTES, MAX_YAML_BYTES};

mod outcome;
use outcome::{Kind, Object, Outcome, classify, kind_of};

mod reader;
use reader::{Inherited, Reader};

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
