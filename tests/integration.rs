//! The single integration test binary (tiers: CLI, fixture scenarios, snapshots, upstream
//! differential). Unit tests of `core` live next to the code.

mod support;

mod cli;
mod replicas_property;
mod scenarios;
mod simulate;
mod snapshots;
mod whatif_explain;
