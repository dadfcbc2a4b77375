//! kubectl-topo: recompute and explain Kubernetes topology hints.
//!
//! Architecture (a one-way pipeline): `cli` (what the user typed) → `settings` (resolved once) →
//! `source` (the only I/O: dump or live cluster) → `model::Snapshot` → `core` (pure upstream port)
//! → `report` → `render` (writes to a given writer) → exit code.

pub mod core;
pub mod model;
pub mod source;
