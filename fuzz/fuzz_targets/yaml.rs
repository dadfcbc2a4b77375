//! The YAML rewrite into JSON against serde-saphyr on the same text (through `parse_dump`): the same
//! snapshot wherever the rewrite takes the text.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::yaml(data));
