//! The streaming and the whole-text JSON readers on the same bytes: same snapshot or same error.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::json(data));
