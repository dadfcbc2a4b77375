//! The endpoint margin: inverts `getAllocations`' endpoint checks (`len(ratios) > n`, `Σ minimum >
//! n`, `topologycache.go`) and `AddHints`' abort on a ready endpoint without a zone, over one ready
//! endpoint more or fewer in one zone (docs/stability.md#endpoints).
//!
//! Step A reads only the number of ready endpoints, so within the zoned endpoints the answer is
//! the same in every zone; the zone-less group `""` differs (one more there always disables).

use std::collections::{BTreeMap, BTreeSet};

use super::CpuState;
use crate::report::stability::EndpointFlip;

/// Per zone with counted Nodes or ready endpoints (and `""` when some have no zone).
pub fn endpoint_flips(state: &CpuState, ready: &BTreeMap<String, i64>) -> Vec<EndpointFlip> {
    let n: i64 = ready.values().sum();
    let zoneless = ready.get("").copied().unwrap_or(0);
    let today = state.holds(n, zoneless);
    let zones: BTreeSet<&String> = state.zones.keys().chain(ready.keys()).collect();
    zones
        .into_iter()
        .map(|zone| {
            let here = ready.get(zone).copied().unwrap_or(0);
            let bump = |by: i64| match zone.is_empty() {
                true => state.holds(n + by, zoneless + by),
                false => state.holds(n + by, zoneless),
            };
            EndpointFlip {
                zone: zone.clone(),
                ready: here,
                add_flips: bump(1) != today,
                remove_flips: (here > 0).then(|| bump(-1) != today),
            }
        })
        .collect()
}
