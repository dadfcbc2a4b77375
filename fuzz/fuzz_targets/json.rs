//! The JSON reader through windows of 1 MiB and of a few bytes, and `parse_dump`: same snapshot or
//! same error.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::json(data));
