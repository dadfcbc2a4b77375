//! The JSON reader on an input handed out a few bytes per read, and `parse_dump` on the whole text:
//! same snapshot or same error.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::json(data));
