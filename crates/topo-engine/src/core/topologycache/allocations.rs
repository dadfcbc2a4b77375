//! Step A of `AddHints`: per-zone minimum/maximum/desired endpoint counts and the four safeguards
//! (`getAllocations`, `topologycache.go`, docs/behaviour.md#step-a-allocations).

use super::{Allocation, Allocations, Disabled};
use crate::core::zones::Ratios;

/// Maximum overload any endpoint should see (`overloadThreshold`, `topologycache.go`).
pub const OVERLOAD_THRESHOLD: f64 = 0.2;

/// `1 / (1 + overloadThreshold)` as the f64 Go uses: `0.8333333333333334`, bits
/// `0x3feaaaaaaaaaaaab` (Go 1.26: `math.Float64bits(1 / (1 + overloadThreshold))`).
/// Go folds the constant exactly; the runtime f64 expression below rounds to the same double.
pub fn overload_factor() -> f64 {
    1.0 / (1.0 + OVERLOAD_THRESHOLD)
}

// mirrors topologycache.go: getAllocations
/// Allocations for `num_endpoints` ready endpoints, or the safeguard that refuses hints.
///
/// The checks run in upstream order: nil ratios, fewer than 2 zones, more zones than endpoints,
/// Σ minimum > n. Upstream stops summing minimums as soon as the sum exceeds `n` (in map order);
/// with non-negative CPU every minimum is ≥ 0, so the verdict is order-independent; we report the
/// full sum.
pub fn get_allocations(ratios: &Ratios, num_endpoints: i64) -> Result<Allocations, Disabled> {
    let Some(ratios) = ratios.as_map() else {
        return Err(Disabled::InsufficientNodeInfo);
    };
    let zones = ratios.len() as i64;
    if zones < 2 {
        return Err(Disabled::OneZone);
    }
    if zones > num_endpoints {
        return Err(Disabled::InsufficientEndpoints { endpoints: num_endpoints, zones });
    }
    let mut allocations = Allocations::new();
    let mut min_total = 0;
    for (zone, ratio) in ratios {
        let desired = ratio * num_endpoints as f64;
        let minimum = (desired * overload_factor()).ceil() as i64;
        allocations
            .insert(zone.clone(), Allocation { minimum, maximum: 0, desired: desired.max(minimum as f64) });
        min_total += minimum;
    }
    if min_total > num_endpoints {
        return Err(Disabled::OverloadThreshold {
            endpoints: num_endpoints,
            zones,
            minimum_total: min_total,
        });
    }
    for allocation in allocations.values_mut() {
        allocation.maximum = allocation.minimum + num_endpoints - min_total;
    }
    Ok(allocations)
}
