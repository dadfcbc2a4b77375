//! The engine (zones, check, explain, simulate, every renderer) on generated Snapshots.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::engine(data));
