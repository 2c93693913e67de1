//! Parse throughput of a long streamed response, per wire protocol: raw SSE bytes in
//! network-sized chunks → SSE decoder → protocol decoder → provider-neutral events. Also
//! counts heap allocations per token, which should be one: the delta text itself.
//!
//! Run: `cargo bench --bench sse_parse` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::alloc::System;
use std::collections::VecDeque;
use std::time::Instant;

use massgen::backend::StreamEvent;
use massgen::backend::http::{CallSite, SseDecoder, WireDecoder};
use massgen::backend::wire::anthropic::AnthropicDecoder;
use massgen::backend::wire::gemini::GeminiDecoder;
use massgen::backend::wire::openai_chat::ChatDecoder;
use massgen::backend::wire::openai_responses::ResponsesDecoder;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes of SSE per protocol run.
const TARGET_BYTES: usize = 64 * 1024 * 1024;
/// Bytes handed to the decoder at a time, like a TLS record.
const CHUNK: usize = 16 * 1024;

const WORDS: [&str; 8] = [
    " the",
    " answer",
    " is",
    " Paris",
    ",",
    " which",
    " has",
    " \\\"quotes\\\"\\n",
];

struct Protocol {
    name: &'static str,
    /// One SSE event carrying the text token `token`.
    token_event: fn(&str) -> String,
    head: &'static str,
    tail: &'static str,
    decoder: fn(CallSite) -> Box<dyn WireDecoder>,
}

fn protocols() -> Vec<Protocol> {
    vec![
        Protocol {
            name: "openai_chat",
            token_event: |token| {
                format!(
                    "data: {{\"id\":\"chatcmpl-8\",\"object\":\"chat.completion.chunk\",\"created\":1731000000,\
                 \"model\":\"gpt-4o\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{token}\"}},\
                 \"finish_reason\":null}}]}}\n\n"
                )
            },
            head: "data: {\"id\":\"chatcmpl-8\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
            tail: "data: {\"id\":\"chatcmpl-8\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
               data: {\"id\":\"chatcmpl-8\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":20}}\n\n\
               data: [DONE]\n\n",
            decoder: |site| Box::new(ChatDecoder::new(site)),
        },
        Protocol {
            name: "openai_resp",
            token_event: |token| {
                format!(
                    "event: response.output_text.delta\ndata: {{\"type\":\"response.output_text.delta\",\
                     \"sequence_number\":7,\"item_id\":\"msg_67c9fdcf37fc\",\"output_index\":0,\
                     \"content_index\":0,\"delta\":\"{token}\",\"logprobs\":[],\"obfuscation\":\"uH7\"}}\n\n"
                )
            },
            head: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"}}\n\n\
                   event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_67c9fdcf37fc\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n",
            tail: "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"usage\":{\"input_tokens\":10,\"output_tokens\":20,\"total_tokens\":30}}}\n\n",
            decoder: |site| Box::new(ResponsesDecoder::new(site)),
        },
        Protocol {
            name: "anthropic",
            token_event: |token| {
                format!(
                    "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\
                 \"delta\":{{\"type\":\"text_delta\",\"text\":\"{token}\"}}}}\n\n"
                )
            },
            head: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n\
               event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            tail: "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n\
               event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":20}}\n\n\
               event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
            decoder: |site| Box::new(AnthropicDecoder::new(site)),
        },
        Protocol {
            name: "gemini",
            token_event: |token| {
                format!(
                    "data: {{\"candidates\":[{{\"content\":{{\"parts\":[{{\"text\":\"{token}\"}}],\"role\":\"model\"}},\
                 \"index\":0}}],\"usageMetadata\":{{\"promptTokenCount\":10,\"candidatesTokenCount\":5,\
                 \"totalTokenCount\":15}},\"modelVersion\":\"gemini-2.5-flash\"}}\r\n\r\n"
                )
            },
            head: "",
            tail: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":10,\"candidatesTokenCount\":20,\"totalTokenCount\":30}}\r\n\r\n",
            decoder: |site| Box::new(GeminiDecoder::new(site)),
        },
    ]
}

fn site() -> CallSite {
    CallSite::new("bench", "bench", "")
}

struct Run {
    seconds: f64,
    text_events: u64,
    allocations: usize,
}

fn run(protocol: &Protocol, stream: &[u8]) -> Run {
    let mut sse = SseDecoder::default();
    let mut decoder = (protocol.decoder)(site());
    let mut out = VecDeque::with_capacity(64);
    let mut text_events = 0u64;
    let region = Region::new(ALLOCATOR);
    let started = Instant::now();
    for chunk in stream.chunks(CHUNK) {
        sse.push(chunk);
        while let Some(event) = sse.next_event() {
            decoder.event(event.unwrap(), &mut out).unwrap();
            for event in out.drain(..) {
                if let StreamEvent::TextDelta(text) = event {
                    text_events += 1;
                    std::hint::black_box(text);
                }
            }
        }
    }
    decoder.end(&mut out).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    Run {
        seconds,
        text_events,
        allocations: region.change().allocations,
    }
}

fn main() {
    println!("protocol      MB of SSE   MB/s   tokens/s     allocations per token");
    for protocol in protocols() {
        let mut stream = String::from(protocol.head);
        let mut index = 0;
        while stream.len() < TARGET_BYTES {
            stream.push_str(&(protocol.token_event)(WORDS[index % WORDS.len()]));
            index += 1;
        }
        stream.push_str(protocol.tail);
        let bytes = stream.into_bytes();
        let megabytes = bytes.len() as f64 / 1e6;
        let mut best: Option<Run> = None;
        for _ in 0..5 {
            let result = run(&protocol, &bytes);
            assert_eq!(result.text_events, index as u64);
            if best
                .as_ref()
                .is_none_or(|best| result.seconds < best.seconds)
            {
                best = Some(result);
            }
        }
        let best = best.unwrap();
        println!(
            "{:<12} {:>10.1} {:>6.0} {:>10.0} {:>12.2}",
            protocol.name,
            megabytes,
            megabytes / best.seconds,
            best.text_events as f64 / best.seconds,
            best.allocations as f64 / best.text_events as f64,
        );
    }
}
