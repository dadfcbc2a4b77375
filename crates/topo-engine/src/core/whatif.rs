//! `simulate`: what a changed cluster looks like once the controller has reacted. The changes
//! ([`changes`]) are applied to the nodes and endpoints as the controller would see them, its next
//! sync is decided and run, and the result is analysed by [`crate::core::analyze`] before and
//! after ([`simulate()`]). Built on top of the analysis, which never depends on it. Pure.

pub mod apply;
pub mod changes;
mod endpoints;
mod error;
mod nodes;
pub mod simulate;
mod summary;
mod sync;

#[cfg(test)]
mod tests;

pub use simulate::{simulate, simulate_replacing};
