//! What watching an agent's context window costs: counting a long conversation's tokens
//! before a model call (done only once its bytes could pass the 75 % trigger) and
//! compressing it to MassGen's target, for conversations of 100 KB to 1.6 MB of mixed prose,
//! code and tool results.
//!
//! Run: `cargo bench --bench context_count` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use massgen::backend::compression::{Keep, compress};
use massgen::backend::{Message, ToolCall, tokens};

const RUNS: usize = 5;

/// A conversation of about `bytes`: the system prompt, the question, then rounds of a
/// tool call and its result (source code) and the model's prose.
fn conversation(bytes: usize) -> Vec<Message> {
    let prose = "The cache keeps the hottest keys in memory and evicts the rest in \
                 least-recently-used order, so the second read of a key is served locally. ";
    let code = "fn evict(&mut self) -> Option<Key> {\n    let oldest = self.order.pop_front()?;\n    \
                self.entries.remove(&oldest);\n    Some(oldest)\n}\n";
    let mut messages = vec![
        Message::system(prose.repeat(20)),
        Message::user("Review the cache module and propose a fix."),
    ];
    let mut size = 0;
    let mut round = 0;
    while size < bytes {
        let call = ToolCall {
            id: format!("call_{round}"),
            name: "read_file".into(),
            arguments: format!("{{\"path\": \"src/cache_{round}.rs\"}}"),
            signature: None,
        };
        let result = code.repeat(40);
        let thought = prose.repeat(8);
        size += result.len() + thought.len();
        messages.push(Message::assistant(thought, vec![call]));
        messages.push(Message::Tool {
            call_id: format!("call_{round}"),
            name: "read_file".into(),
            content: result,
            is_error: false,
        });
        round += 1;
    }
    messages
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    println!("| conversation | messages | tokens | count | compress to 20 % of 128k |");
    println!("|---|---|---|---|---|");
    for kilobytes in [100, 400, 1600] {
        let messages = conversation(kilobytes * 1000);
        let counted = tokens::count_prompt(&messages, &[]);
        let count = median(
            (0..RUNS)
                .map(|_| {
                    let started = Instant::now();
                    black_box(tokens::count_prompt(black_box(&messages), &[]));
                    started.elapsed()
                })
                .collect(),
        );
        let squeeze = median(
            (0..RUNS)
                .map(|_| {
                    let started = Instant::now();
                    black_box(compress(
                        black_box(&messages),
                        Keep::Tokens(25_600),
                        128_000,
                    ));
                    started.elapsed()
                })
                .collect(),
        );
        println!(
            "| {kilobytes} KB | {} | {counted} | {:.1} ms | {:.1} ms |",
            messages.len(),
            count.as_secs_f64() * 1000.0,
            squeeze.as_secs_f64() * 1000.0
        );
    }
}
