//! Hint removal (`RemoveHintsFromSlices`, `topologycache/utils.go`, docs/behaviour.md#hint-removal).

use super::{Removal, SliceInfo};
use crate::model::EndpointSlice;

// mirrors utils.go: RemoveHintsFromSlices
/// Clears every endpoint's hints in ToCreate and ToUpdate; moves each Unchanged slice with any
/// endpoint whose `hints` is `Some(..)` (ready or not, even empty) to the end of ToUpdate, hints
/// cleared; other Unchanged slices stay, in order.
pub fn remove_hints_from_slices(si: SliceInfo) -> SliceInfo {
    remove_hints_tracking(si).0
}

/// [`remove_hints_from_slices`] that also reports which Unchanged slices it moved.
pub(super) fn remove_hints_tracking(mut si: SliceInfo) -> (SliceInfo, Removal) {
    for slice in si.to_create.iter_mut().chain(si.to_update.iter_mut()) {
        clear_hints(slice);
    }
    let mut removal = Removal::default();
    let mut kept = Vec::with_capacity(si.unchanged.len());
    for mut slice in std::mem::take(&mut si.unchanged) {
        if slice.endpoints.iter().any(|endpoint| endpoint.hints.is_some()) {
            clear_hints(&mut slice);
            removal.moved_unchanged.push(slice.name.clone());
            si.to_update.push(slice);
        } else {
            kept.push(slice);
        }
    }
    si.unchanged = kept;
    (si, removal)
}

/// `slice.Endpoints[i].Hints = nil` for every endpoint.
fn clear_hints(slice: &mut EndpointSlice) {
    for endpoint in &mut slice.endpoints {
        endpoint.hints = None;
    }
}
