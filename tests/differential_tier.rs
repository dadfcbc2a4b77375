//! The upstream differential tier (`cargo test --features differential --test differential`): the
//! Rust engine against the Go oracle running the real upstream code (`differential.rs`,
//! `tests/upstream/`). Needs Go >= 1.24 and the Go module proxy on first run; scripts/test-all.sh
//! runs it last, with `--nocapture`, so that its summary line is printed.

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

#[allow(dead_code, reason = "the helpers are shared by every test target; this one uses some")]
mod support;

mod differential;
