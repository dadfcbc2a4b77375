//! The hermetic tier: what plain `cargo test` runs, with the unit tests next to the code. Fixture
//! scenarios, snapshots, the CLI in a cleared environment, bad inputs, the JSON Schema, the
//! README's examples, the fuzz corpus, loopback API servers on 127.0.0.1 and pseudo-terminals
//! (Python's standard library, util-linux `script`): no Go, npm, root or network. The tiers that
//! need more are their own targets behind features (`consumers`, `differential`, `e2e`; see
//! docs/testing.md).

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

mod support;

mod apply;
mod bad_inputs;
mod callers;
mod certify;
mod cli;
mod config_schema;
mod connection;
mod dataplane;
mod frontdoors;
mod fuzz_corpus;
mod help;
mod hint_readers;
mod kubectl_manners;
mod manners;
mod partial;
mod read_only;
mod readme;
mod realworld;
mod reasons;
mod redact;
mod replicas_property;
mod report_manners;
mod report_snapshots;
mod reports;
mod scenarios;
mod schema;
mod serve_faults;
mod serve_http;
mod simulate;
mod snapshots;
mod stability;
mod versions;
mod vocabulary;
mod whatif_explain;
mod workloads;
mod wrapping;
mod yaml_json;
