//! What keeping secrets out of output costs per streamed piece and per event: 1M token-sized
//! pieces through a `StreamHold` with four secrets configured (and with none, the scripted
//! and keyless case), and `Redactor::redact` over a 2 KB event's JSON with no secret in it
//! (the common case for every non-delta event).
//!
//! Run: `cargo bench --bench redaction` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::hint::black_box;
use std::time::Instant;

use massgen::redact::{Redactor, StreamHold};

const PIECES: usize = 1_000_000;
const EVENTS: usize = 100_000;
const RUNS: usize = 3;

fn secrets() -> Redactor {
    Redactor::new([
        "sk-proj-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ",
        "sk-ant-api03-0123456789abcdefghijklmnopqrstuvwxyz",
        "AIzaSyA0123456789abcdefghijklmnopqrstu",
        "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
    ])
}

/// Token-sized pieces, including the `sk-` that could start a key now and then.
fn piece(index: usize) -> &'static str {
    const WORDS: [&str; 9] = [
        " the", " cache", " keeps", " hot", " keys", " in", " memory", ",", " sk-",
    ];
    WORDS[index % WORDS.len()]
}

fn ns_per_piece(redactor: &Redactor) -> f64 {
    let mut hold = StreamHold::default();
    let started = Instant::now();
    let mut shown = 0;
    for index in 0..PIECES {
        shown += hold.push(redactor, black_box(piece(index))).len();
    }
    shown += hold.finish().len();
    black_box(shown);
    started.elapsed().as_nanos() as f64 / PIECES as f64
}

fn ns_per_event(redactor: &Redactor) -> f64 {
    let event = serde_json::json!({
        "seq": 1234, "turn": 1, "agent": "alpha",
        "msg": {"type": "tool_call_end", "call_id": "call_1", "tool": "read_file",
                "ok": true, "output": "fn main() { println!(\"hello\"); }\n".repeat(50)}
    })
    .to_string();
    let started = Instant::now();
    for _ in 0..EVENTS {
        black_box(redactor.redact(black_box(&event)));
    }
    started.elapsed().as_nanos() as f64 / EVENTS as f64
}

fn main() {
    let none = Redactor::default();
    let four = secrets();
    println!("secret redaction cost (best of {RUNS} runs):");
    let best = |measure: &dyn Fn() -> f64| (0..RUNS).map(|_| measure()).fold(f64::MAX, f64::min);
    println!(
        "  streamed piece, no secrets:   {:6.1} ns",
        best(&|| ns_per_piece(&none))
    );
    println!(
        "  streamed piece, four secrets: {:6.1} ns",
        best(&|| ns_per_piece(&four))
    );
    println!(
        "  2 KB event, four secrets:     {:6.1} ns",
        best(&|| ns_per_event(&four))
    );
}
