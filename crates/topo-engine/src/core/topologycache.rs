//! Port of the EndpointSlice controller's CPU-proportional hint logic (`k8s.io/endpointslice`
//! package `topologycache`, docs/behaviour.md#auto-allocation), bit-exact in its floating point.
//!
//! Upstream keeps a mutable cache; we model one `AddHints` call on a fresh cache (so a success
//! emits `TopologyAwareHintsEnabled`) with the ratios passed in. Go map order is upstream's only
//! randomness (docs/behaviour.md#steady-state-and-ties): the canonical result takes the lexicographically smallest zone at every
//! tie, and [`AddHintsOutcome::alternatives`] lists every per-zone count any tie choice can give.
//!
//! Submodules mirror upstream files: `allocations` (`getAllocations`), `sliceinfo` (`SliceInfo`
//! methods), `utils` (`getHintsByZone`, `getGivingAndReceivingZones`, `getMost`,
//! `redistributeHints`), `removal` (`RemoveHintsFromSlices`), `overload` (`serviceOverloaded`),
//! `events` (`event.go`), `hints` (`AddHints`) and `alternatives` (tie enumeration, ours).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::EndpointSlice;

mod allocations;
mod alternatives;
pub mod events;
mod hints;
mod overload;
mod removal;
mod sliceinfo;
mod utils;

#[cfg(test)]
mod tests;

pub use allocations::{OVERLOAD_THRESHOLD, get_allocations, overload_factor};
pub use alternatives::{ALTERNATIVES_LIMIT, count_alternatives, giving_and_receiving_alternatives};
pub use events::{ControllerEvent, EVENT_REASON_DISABLED, EVENT_REASON_ENABLED, format_with_address_type};
pub use hints::add_hints;
pub use overload::{required_endpoints_by_zone, service_overloaded};
pub use removal::remove_hints_from_slices;
pub use sliceinfo::{get_allocated_hints_by_zone, get_total_ready_endpoints};
pub use utils::{get_giving_and_receiving_zones, get_hints_by_zone, get_most, redistribute_hints};

/// Endpoint counts per zone (upstream `EndpointZoneInfo` / `map[string]int`).
pub type ZoneCounts = BTreeMap<String, i64>;

/// The allocation of every zone of the ratio map.
pub type Allocations = BTreeMap<String, Allocation>;

/// The slices of one Service address type, as the reconciler hands them to the topology cache.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SliceInfo {
    /// `IPv4`, `IPv6` (or `FQDN`); used in event messages.
    pub address_type: String,
    /// Slices to create.
    pub to_create: Vec<EndpointSlice>,
    /// Slices to update.
    pub to_update: Vec<EndpointSlice>,
    /// Slices the reconciler leaves as they are.
    pub unchanged: Vec<EndpointSlice>,
}

/// How many endpoints one zone should get (upstream `allocation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Allocation {
    /// `ceil(desired_raw * K)`: fewest endpoints keeping per-endpoint overload ≤ 20 %.
    pub minimum: i64,
    /// `minimum + n - Σminimum`.
    pub maximum: i64,
    /// `max(ratio * n, minimum)`.
    pub desired: f64,
}

/// Why `AddHints` removes all hints of the address type (each maps to one upstream event text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Disabled {
    /// Ratios are nil (`SetNodes` found insufficient node information).
    InsufficientNodeInfo,
    /// Ratio map empty but not nil (fresh cache before `SetNodes`).
    OneZone,
    /// More zones than ready endpoints.
    InsufficientEndpoints {
        /// Ready endpoints `n`.
        endpoints: i64,
        /// Zones in the ratio map.
        zones: i64,
    },
    /// Σ of minimums exceeds `n`.
    OverloadThreshold {
        /// Ready endpoints `n`.
        endpoints: i64,
        /// Zones in the ratio map.
        zones: i64,
        /// Σ of all zones' minimums (upstream stops summing once it exceeds `n`; we sum all).
        minimum_total: i64,
    },
    /// A ready endpoint in a slice being written has no zone.
    NoZoneSpecified {
        /// First address of every such endpoint, in allocatable-slice order.
        addresses: Vec<String>,
    },
    /// No zone received any hint (practically unreachable).
    NoHintsAllocated,
}

/// What `RemoveHintsFromSlices` did on an abort (docs/behaviour.md#hint-removal).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Removal {
    /// Names of Unchanged slices that carried hints and were moved to `to_update`, in list order.
    pub moved_unchanged: Vec<String>,
}

/// Everything one `AddHints` call produces, plus the intermediate values a report explains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AddHintsOutcome {
    /// The slices afterwards: hints rewritten, rejected/cleared Unchanged slices moved to `to_update`.
    pub slices: SliceInfo,
    /// Unchanged slices rejected by the keep-check (Step B), in list order.
    pub rejected_unchanged: Vec<String>,
    /// The event recorded on the Service.
    pub event: ControllerEvent,
    /// Why hints were removed; `None` on success.
    pub disabled: Option<Disabled>,
    /// Step A allocations, when they could be computed.
    pub allocations: Option<Allocations>,
    /// Ready endpoints counted (`n`).
    pub total_ready: i64,
    /// Per-zone hint counts after redistribution (what upstream caches); empty when disabled.
    pub counts: ZoneCounts,
    /// Step D: endpoints each zone gives (canonical tie choice).
    pub give: ZoneCounts,
    /// Step D: endpoints each zone receives (canonical tie choice).
    pub take: ZoneCounts,
    /// The removal applied when hints were disabled.
    pub removal: Option<Removal>,
    /// Every per-zone count vector reachable by some Go map order; sorted, includes `counts`.
    pub alternatives: Vec<ZoneCounts>,
    /// True when the enumeration hit [`ALTERNATIVES_LIMIT`] and `alternatives` may be incomplete.
    pub alternatives_truncated: bool,
}
