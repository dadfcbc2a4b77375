//! Unit tests named after upstream's (`topologycache/*_test.go`, spec §7) plus the worked
//! examples of spec §6.

use super::{SliceInfo, ZoneCounts};
use crate::model::EndpointSlice;

mod allocations;
mod hints;
mod utils;

/// Counts from `(zone, n)` pairs.
fn counts(pairs: &[(&str, i64)]) -> ZoneCounts {
    pairs.iter().map(|(zone, n)| (zone.to_string(), *n)).collect()
}

/// An IPv4 `SliceInfo` with only slices to create.
fn create(to_create: Vec<EndpointSlice>) -> SliceInfo {
    SliceInfo { address_type: "IPv4".into(), to_create, ..SliceInfo::default() }
}
