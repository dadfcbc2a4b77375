//! The two answers a case is compared on: the oracle's result line ([`OracleResult`], README
//! "Output") and the Rust engine's ([`Ours`], built by `engine.rs`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Per-zone counts.
pub type Counts = BTreeMap<String, i64>;

/// An endpoint's hints as the oracle prints them (`null` lists kept apart from `[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintsOut {
    #[serde(rename = "forZones")]
    pub for_zones: Option<Vec<String>>,
    #[serde(rename = "forNodes")]
    pub for_nodes: Option<Vec<String>>,
}

/// An event (type, reason, message).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "type")]
    pub event_type: String,
    pub reason: String,
    pub message: String,
}

/// One sync of one family, as the oracle reports it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SyncResult {
    pub changed: Vec<String>,
    pub events: Vec<Event>,
    pub counts: Counts,
    pub hints: BTreeMap<String, Option<HintsOut>>,
}

/// One family of an oracle outcome.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleFamily {
    pub family: String,
    pub steady: Option<SyncResult>,
    pub fresh: Option<SyncResult>,
    /// Upstream's overload recheck on this family's own cache entry after the steady sync;
    /// `None` when the sync left no entry (the family then adds nothing to the Service's flag).
    #[serde(default)]
    pub overloaded: Option<bool>,
}

/// One controller pass.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleOutcome {
    pub path: String,
    pub families: Vec<OracleFamily>,
    pub overloaded: bool,
}

/// `CategorizeEndpoints` for one (node, port).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProxyPort {
    pub cluster: Option<Vec<String>>,
    pub local: Option<Vec<String>>,
}

/// kube-proxy on one node.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProxyNodeOut {
    pub ports: BTreeMap<String, Vec<ProxyPort>>,
}

/// One result line of the oracle.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleResult {
    pub id: String,
    #[serde(rename = "k8sVersion")]
    pub k8s_version: String,
    pub runs: i64,
    #[serde(default)]
    pub error: Option<String>,
    pub outcomes: Vec<OracleOutcome>,
    pub seen: Vec<i64>,
    pub proxy: Option<BTreeMap<String, BTreeMap<String, ProxyNodeOut>>>,
}

/// An endpoint's facts the leniency rules need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndpointMeta {
    pub zone: Option<String>,
    pub ready: bool,
}

/// One family of the engine's answer for one sync (steady or fresh).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OurFamily {
    pub family: String,
    /// No managed slices (the engine reports the family as unmanaged; events not compared).
    pub no_managed_slices: bool,
    /// `rewrittenSlices`, sorted.
    pub changed: Vec<String>,
    pub event: Option<Event>,
    /// forZones entries of ready endpoints over the expected slices.
    pub counts: Counts,
    /// The same over the live slices.
    pub live_counts: Counts,
    /// `countOutcomes`.
    pub count_outcomes: Vec<Counts>,
    /// Hints of every endpoint of the expected slices, keyed like the oracle.
    pub hints: BTreeMap<String, Option<HintsOut>>,
    /// Own zone and readiness per endpoint key.
    pub endpoints: BTreeMap<String, EndpointMeta>,
    pub overloaded: Option<bool>,
    /// The engine's `serviceOverloaded` on the counts this sync leaves (what the oracle's cache
    /// holds after its sync); `None` off the annotation path.
    pub overloaded_after_sync: Option<bool>,
}

/// kube-proxy per family as the engine sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OurProxy {
    /// `"<port name>/<protocol>"` of the first port; `None` when kube-proxy skips the Service.
    pub port: Option<String>,
    /// iTP=Local: the local list is what ClusterIP traffic uses.
    pub local: bool,
    /// Node → endpoint addresses (sorted).
    pub nodes: BTreeMap<String, Vec<String>>,
}

/// The engine's whole answer for a case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ours {
    pub path: String,
    pub steady: Vec<OurFamily>,
    /// `None` on path `none` (the controller never reconciles).
    pub fresh: Option<Vec<OurFamily>>,
    /// Per reported family.
    pub proxy: BTreeMap<String, OurProxy>,
}
