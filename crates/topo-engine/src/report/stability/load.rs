//! Load under a trafficDistribution heuristic (`PreferSameZone`, `PreferSameNode`, `PreferClose`):
//! upstream has no overload safeguard on that path, so the hints stay however unevenly they load
//! the endpoints (docs/stability.md#load-without-a-safeguard). Facts only.

use serde::Serialize;

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
    /// Where requests originate (zone CPU, or `--traffic`).
    pub traffic_source: TrafficSource,
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
