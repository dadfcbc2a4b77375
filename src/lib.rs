//! kubectl-topo: recompute and explain Kubernetes topology hints.
//!
//! Architecture (a one-way pipeline): `cli` (what the user typed) → `settings` (resolved once) →
//! `source` (the only I/O: dump or live cluster) → `model::Snapshot` → `core` (pure upstream port)
//! → `report` → `render` (writes to a given writer) → exit code. `app` wires one subcommand each.
//!
//! Errors: `source` reports its own (`source::SourceError`, each with its remedy); `error::Error`
//! wraps them with bad flag values (`settings::SettingsError`), `simulate` changes that do not fit
//! the cluster and output failures, and maps each to an `exit::ExitStatus`.

// Tests are tables (one row per upstream case): long by design; product code keeps the limit.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod app;
pub mod cli;
pub mod completion;
pub mod entry;
pub mod error;
pub mod escape;
pub mod exit;
pub mod internal;
pub mod progress;
pub mod prose;
pub mod render;
pub mod schema;
pub mod serve;
pub mod settings;
pub mod source;
pub mod triage;
pub mod version;
