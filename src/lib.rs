//! kubectl-topo: recompute and explain Kubernetes topology hints.
//!
//! Architecture (a one-way pipeline): `cli` (what the user typed) → `settings` (resolved once) →
//! `source` (the only I/O: dump or live cluster) → `model::Snapshot` → `core` (pure upstream port)
//! → `report` → `render` (writes to a given writer) → exit code. `app` wires one subcommand each.

// Tests are tables (one row per upstream case): long by design; product code keeps the limit.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod app;
pub mod cli;
pub mod completion;
pub mod error;
pub mod exit;
pub mod internal;
pub mod progress;
pub mod prose;
pub mod render;
pub mod settings;
pub mod source;
pub mod version;
