//! Load under a trafficDistribution heuristic (`PreferSameZone`, `PreferSameNode`, `PreferClose`):
//! upstream has no overload safeguard on that path, so the hints stay however unevenly they load
//! the endpoints (docs/stability.md#load-without-a-safeguard). Facts only.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::ReadStatus;
use crate::report::TrafficSource;

/// An endpoint above this many times an even share of the Service's requests is flagged.
pub const LOAD_FACTOR: f64 = 2.0;

/// The endpoints the hints load unevenly, after the controller's next sync.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoadCheck {
    /// The factor over an even share above which an endpoint is flagged ([`LOAD_FACTOR`]).
    pub factor: f64,
    /// Where requests originate (zone CPU, `--traffic`, or the front doors' Pods).
    pub traffic_source: TrafficSource,
    /// The front doors before the Service whose Pods are its callers, when it has any and no
    /// `--traffic` was given: their Pods per zone, or why they could not weigh the callers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front_door: Option<FrontDoorCallers>,
    /// Ready endpoints of the family.
    pub ready_endpoints: i64,
    /// The highest load of any endpoint relative to an even share (None: no endpoint receives any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_load: Option<f64>,
    /// Endpoints above `factor` times an even share, busiest first.
    pub overloaded: Vec<LoadedEndpoint>,
    /// Ready endpoints that receive no request at all.
    pub idle: Vec<LoadedEndpoint>,
}

/// One endpoint and its load.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoadedEndpoint {
    /// Its first address.
    pub address: String,
    /// Its zone (`""`: none).
    pub zone: String,
    /// Its share of all requests relative to an even share (1.0 = `1/n`).
    pub load: f64,
}

/// The callers of a Service behind a front door (docs/stability.md#callers-from-the-front-door).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FrontDoorCallers {
    /// The Ingresses of an ingress-nginx class and the routes of an Envoy Gateway Gateway naming the
    /// Service (`kind namespace/name`).
    pub routes: Vec<String>,
    /// What the read of the front doors' Pods found (`None`: not looked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods_read: Option<ReadStatus>,
    /// Their Pods per zone: the callers' weights when `fallback` is `None`.
    pub pods_by_zone: BTreeMap<String, i64>,
    /// Their Pods whose zone is unknown (`namespace/name`): not scheduled, on a Node not read, or
    /// on one without a zone label.
    pub unknown_zone: Vec<String>,
    /// Why the Pods did not weigh the callers (zone CPU did); `None`: they did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<CallersFallback>,
}

/// Why a front door's Pods did not weigh the callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum CallersFallback {
    /// The Pods were not read (forbidden, failed, not in the dump): `pods_read` says which.
    PodsNotRead,
    /// Read, and none is the front doors'.
    NoPods,
    /// Some Pod's zone is unknown (`unknown_zone`): weighing by the others would misplace its share.
    UnknownZone,
}
