//! kubectl-topo: recompute and explain Kubernetes topology hints.
//!
//! Architecture (docs/architecture.md): `entry` parses the command line (`cli`), resolves it once
//! (`settings`) and runs one subcommand (`app`): `source` (reads a cluster: dump or live) →
//! `model::Snapshot` → the engine → report → `prose` (the only English) → `render` (writes to a
//! given writer) → exit code. Each module imports only those drawn below it in the architecture's
//! diagram; `layers.rs` is the test that holds it.
//!
//! Errors: `source` reports its own (`SourceError`, each with its remedy); `error::Error` wraps
//! them with bad flag values (`settings::SettingsError`), a bad config file, `simulate` changes
//! that do not fit the cluster, a cluster too old to model and output failures, and maps each to
//! an exit code.
//!
//! The public API is what `main`, the tests under `tests/`, `xtask` and the fuzz targets use, and
//! nothing else: `entry::run` (the whole command line), `settings` (`Ambient`, `Settings`, the
//! what-if flag parsers), `cli` (the clap command and its flag groups, for help tests), `source`
//! (reading dumps and live clusters), `triage` and `render` (the `check` pipeline and the
//! renderers snapshot tests drive), `prose` (the sentences), `schema` and `exporter`. Everything
//! else is private to the crate, so the compiler reports what nobody uses.

// `pub` only where a caller outside the crate reaches it; the compiler reports any other (the walls
// are the compiler's, not discipline).
#![warn(unreachable_pub)]
// Tests are tables (one row per upstream case): long by design; product code keeps the limit.
#![cfg_attr(test, allow(clippy::too_many_lines))]

mod app;
pub mod cli;
mod completion;
pub mod entry;
mod error;
mod escape;
mod exit;
#[cfg(test)]
mod fixtures;
mod internal;
#[cfg(test)]
mod layers;
mod progress;
pub mod prose;
pub mod render;
pub mod schema;
pub mod serve;
pub mod settings;
pub mod source;
pub mod triage;
mod version;

/// The rule every output follows for untrusted text: true for a character that must not reach a
/// terminal or a machine format raw (the fuzz harnesses hold every `-o` to it).
pub use escape::is_hidden;
