//! The single integration test binary (tiers: CLI, fixture scenarios, snapshots, plugin packaging,
//! upstream differential). Unit tests of `core` live next to the code; the real control plane is
//! its own target (`tests/e2e`).

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

mod support;

mod bad_inputs;
mod cli;
mod connection;
mod differential;
mod dist;
mod fuzz_corpus;
mod help;
mod manners;
mod monitoring;
mod partial;
mod pictures;
mod plugin;
mod read_only;
mod readme;
mod redact;
mod replicas_property;
mod report_formats;
mod reports;
mod scenarios;
mod schema;
mod serve_faults;
mod serve_http;
mod shell_completion;
mod simulate;
mod snapshots;
mod versions;
mod vocabulary;
mod whatif_explain;
mod wrapping;
mod yaml_json;
