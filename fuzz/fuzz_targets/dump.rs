//! `source::dump::parse_dump` on arbitrary bytes, then the engine on whatever parses.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::dump(data));
