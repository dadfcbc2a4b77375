//! Unit tests named after upstream's (`topologycache/*_test.go`) plus the worked
//! examples of docs/behaviour.md#worked-examples.

use super::{SliceInfo, ZoneCounts};
use crate::model::EndpointSlice;

mod allocations;
mod alternatives;
mod hints;
mod nodes;
mod utils;
mod worked;

/// A table cell of `(zone, n)` pairs.
type Pairs = &'static [(&'static str, i64)];

/// Counts from `(zone, n)` pairs.
fn counts(pairs: &[(&str, i64)]) -> ZoneCounts {
    pairs.iter().map(|(zone, n)| (zone.to_string(), *n)).collect()
}

/// An IPv4 `SliceInfo` with only slices to create.
fn create(to_create: Vec<EndpointSlice>) -> SliceInfo {
    SliceInfo { address_type: "IPv4".into(), to_create, ..SliceInfo::default() }
}

/// Ratios from `SetNodes` over one Ready node per `(zone, milli-CPU)` pair.
fn cpu_ratios(zones: &[(&str, i64)]) -> crate::core::zones::Ratios {
    use crate::core::testkit_tc::{NodeBuild, node};
    let nodes: Vec<_> = zones
        .iter()
        .enumerate()
        .map(|(i, (zone, millis))| node(&format!("n{i}")).zone(zone).cpu_millis(*millis).ready())
        .collect();
    crate::core::zones::set_nodes(&nodes).ratios
}
