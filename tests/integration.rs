//! The single integration test binary (tiers: CLI, fixture scenarios, snapshots, plugin packaging,
//! upstream differential). Unit tests of `core` live next to the code; the real control plane is
//! its own target (`tests/e2e`).

mod support;

mod bad_inputs;
mod cli;
mod differential;
mod fuzz_corpus;
mod manners;
mod partial;
mod plugin;
mod read_only;
mod replicas_property;
mod scenarios;
mod simulate;
mod snapshots;
mod whatif_explain;
