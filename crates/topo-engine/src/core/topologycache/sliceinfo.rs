//! `SliceInfo` methods (`topologycache/sliceinfo.go`): the ready-endpoint count `n` and the
//! keep-check of Unchanged slices (docs/behaviour.md#step-b-keep-check).

use super::{Allocations, SliceInfo, ZoneCounts, get_hints_by_zone};
use crate::model::Endpoint;

// mirrors utils.go: numReadyEndpoints
/// Ready endpoints (`ready == Some(true)`) in one slice's endpoint list.
fn num_ready_endpoints(endpoints: &[Endpoint]) -> i64 {
    endpoints.iter().filter(|endpoint| endpoint.controller_ready()).count() as i64
}

// mirrors sliceinfo.go: getTotalReadyEndpoints
/// `n`: ready endpoints over ToCreate, ToUpdate and Unchanged.
pub fn get_total_ready_endpoints(si: &SliceInfo) -> i64 {
    [&si.to_create, &si.to_update, &si.unchanged]
        .into_iter()
        .flatten()
        .map(|slice| num_ready_endpoints(&slice.endpoints))
        .sum()
}

// mirrors sliceinfo.go: getAllocatedHintsByZone
/// Step B: sums the hints of Unchanged slices that pass `getHintsByZone`, in list order; moves
/// every other Unchanged slice (a copy with its current hints) to the end of `to_update`.
/// Returns the accumulated counts and the names of the moved slices, in list order.
pub fn get_allocated_hints_by_zone(
    si: &mut SliceInfo,
    allocations: &Allocations,
) -> (ZoneCounts, Vec<String>) {
    let mut allocated = ZoneCounts::new();
    let mut rejected = Vec::new();
    let mut kept = Vec::with_capacity(si.unchanged.len());
    for slice in std::mem::take(&mut si.unchanged) {
        match get_hints_by_zone(&slice, &allocated, allocations) {
            None => {
                rejected.push(slice.name.clone());
                si.to_update.push(slice);
            }
            Some(hints_by_zone) => {
                for (zone, num_hints) in hints_by_zone {
                    *allocated.entry(zone).or_insert(0) += num_hints;
                }
                kept.push(slice);
            }
        }
    }
    si.unchanged = kept;
    (allocated, rejected)
}
