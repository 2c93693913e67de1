//! Fuzzes the SSE decoder and the openai_responses wire decoder: arbitrary provider bytes, cut at
//! the offsets the input's first bytes choose, never panic and decode as if uncut.

#![no_main]

#[path = "../../tests/properties/checks.rs"]
#[allow(dead_code)]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (cuts, bytes) = data.split_at(data.len().min(4));
    let cuts: Vec<usize> = cuts.iter().map(|&cut| usize::from(cut) * 7).collect();
    checks::check_stream(checks::Protocol::OpenAiResponses, bytes, &cuts);
});
