//! The zone CPU share margin: inverts `getAllocations`' overload safeguard (`Σ ceil(ratio · n · K)
//! ≤ n`, `topologycache.go`) over one zone's CPU, the others' CPU unchanged — so their shares are
//! rescaled proportionally (docs/stability.md#share).
//!
//! With `n` fixed the verdict is a step function of the zone's milli-CPU `v`: a minimum changes
//! only where `ratio · n · K` crosses an integer, i.e. at `v = k·D / (nK − k)` for the zone itself
//! and `v = m_o·nK / k − D` for another zone of milli-CPU `m_o` (`D` = the total without the zone).
//! Between those candidates it is constant; at each one the exact f64 predicate is evaluated on
//! every integer milli-CPU within ±[`WINDOW`] (rounding can move a step by one), so the nearest
//! flip is exact in the controller's own arithmetic.

use super::CpuState;
use crate::core::topologycache::overload_factor;
use crate::report::stability::{ShareFlip, ShareMargin};

/// Integer milli-CPU examined either side of each candidate.
const WINDOW: i64 = 2;

/// Candidates beyond this milli-CPU (a zone a billion cores large) are not examined.
const MILLIS_CAP: f64 = 1e15;

/// The share margin of every counted zone.
pub fn share_margins(state: &CpuState, n: i64, zoneless: i64) -> Vec<ShareMargin> {
    state.zones.iter().map(|(zone, &millis)| zone_margin(state, zone, millis, n, zoneless)).collect()
}

/// The smallest share move, in percentage points, that flips the verdict.
pub fn nearest_points(shares: &[ShareMargin]) -> Option<f64> {
    shares
        .iter()
        .flat_map(|m| {
            [m.down, m.up].into_iter().flatten().map(move |f| (f.flips_at_share - m.share).abs() * 100.0)
        })
        .min_by(f64::total_cmp)
}

fn zone_margin(state: &CpuState, zone: &str, millis: i64, n: i64, zoneless: i64) -> ShareMargin {
    let rest = state.total - millis;
    let share_at = |v: i64| v as f64 / (rest + v) as f64;
    let today = state.holds(n, zoneless);
    let points = test_points(state, zone, rest, n);
    let flips = |v: &i64| state.holds_with(Some((zone, *v)), n, zoneless) != today;
    let flip = |at: i64, holds_to: i64| ShareFlip {
        holds_to_millis: holds_to,
        holds_to_share: share_at(holds_to),
        flips_at_millis: at,
        flips_at_share: share_at(at),
    };
    let down = points.iter().rev().filter(|&&v| v < millis).find(|v| flips(v)).map(|&v| flip(v, v + 1));
    let up = points.iter().filter(|&&v| v > millis).find(|v| flips(v)).map(|&v| flip(v, v - 1));
    ShareMargin { zone: zone.to_string(), millis, share: share_at(millis), down, up }
}

// Inverts getAllocations: `minimum := int(math.Ceil(desired * (1 / (1 + overloadThreshold))))`.
/// Every integer milli-CPU of `zone` (≥ 1) where its verdict may change, sorted, each candidate
/// widened by ±[`WINDOW`].
fn test_points(state: &CpuState, zone: &str, rest: i64, n: i64) -> Vec<i64> {
    let nk = n as f64 * overload_factor();
    let d = rest as f64;
    let mut candidates: Vec<f64> = Vec::new();
    // The zone's own minimum: v / (v + D) · nK = k.
    let mut k = 1.0;
    while k < nk {
        candidates.push(k * d / (nk - k));
        k += 1.0;
    }
    // Another zone's minimum: m_o / (v + D) · nK = k, for v ≥ 1.
    for (_, &m) in state.zones.iter().filter(|(z, _)| z.as_str() != zone) {
        let top = (m as f64 * nk / (d + 1.0)).ceil() + 1.0;
        let mut k = 1.0;
        while k <= top {
            candidates.push(m as f64 * nk / k - d);
            k += 1.0;
        }
    }
    let mut points: Vec<i64> = vec![1];
    for c in candidates.into_iter().filter(|c| c.is_finite() && *c < MILLIS_CAP && *c > -(WINDOW as f64)) {
        let base = c.floor() as i64;
        points.extend((base - WINDOW..=base + WINDOW + 1).filter(|&v| v >= 1));
    }
    points.sort_unstable();
    points.dedup();
    points
}
