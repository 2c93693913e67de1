//! The token usage a streamed response reports, read from its raw SSE bytes the way each
//! provider documents it, in massgen's normalised shape (`input_tokens` counts the whole
//! prompt, cache reads and writes included; `output_tokens` counts reasoning too).

use massgen::protocol::Usage;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Responses,
    Chat,
    Anthropic,
    Gemini,
}

/// The JSON payloads of an SSE body's `data:` lines, in order (`[DONE]` left out).
pub fn payloads(sse: &str) -> Vec<Value> {
    sse.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .filter(|data| data != "[DONE]")
        .map(|data| serde_json::from_str(&data).unwrap_or_else(|error| panic!("{error}: {data}")))
        .collect()
}

fn count(value: &Value, pointer: &str) -> u64 {
    value.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

/// What the response reports, or `None` when it reports no usage at all.
pub fn usage(dialect: Dialect, sse: &str) -> Option<Usage> {
    let events = payloads(sse);
    match dialect {
        // The last chunk, with `stream_options.include_usage`, carries `usage`.
        Dialect::Chat => events
            .iter()
            .rev()
            .find_map(|chunk| chunk.get("usage").filter(|usage| usage.is_object()))
            .map(|usage| Usage {
                input_tokens: count(usage, "/prompt_tokens"),
                output_tokens: count(usage, "/completion_tokens"),
                reasoning_tokens: count(usage, "/completion_tokens_details/reasoning_tokens"),
                cached_input_tokens: count(usage, "/prompt_tokens_details/cached_tokens"),
                ..Usage::default()
            }),
        // `response.completed` carries the finished response with its `usage`.
        Dialect::Responses => events
            .iter()
            .find(|event| event["type"] == "response.completed")
            .and_then(|event| event.pointer("/response/usage"))
            .map(|usage| Usage {
                input_tokens: count(usage, "/input_tokens"),
                output_tokens: count(usage, "/output_tokens"),
                reasoning_tokens: count(usage, "/output_tokens_details/reasoning_tokens"),
                cached_input_tokens: count(usage, "/input_tokens_details/cached_tokens"),
                ..Usage::default()
            }),
        // `message_start` has the prompt's counts, `message_delta` the running output count;
        // a later figure replaces an earlier one. `input_tokens` leaves the cache out.
        Dialect::Anthropic => {
            let mut latest = serde_json::Map::new();
            for event in &events {
                let usage = match event["type"].as_str() {
                    Some("message_start") => event.pointer("/message/usage"),
                    Some("message_delta") => event.get("usage"),
                    _ => None,
                };
                if let Some(Value::Object(fields)) = usage {
                    latest.extend(fields.clone());
                }
            }
            let latest = Value::Object(latest);
            let read = count(&latest, "/cache_read_input_tokens");
            let written = count(&latest, "/cache_creation_input_tokens");
            (latest.get("input_tokens").is_some() || latest.get("output_tokens").is_some()).then(
                || Usage {
                    input_tokens: count(&latest, "/input_tokens") + read + written,
                    output_tokens: count(&latest, "/output_tokens"),
                    cached_input_tokens: read,
                    cache_creation_tokens: written,
                    ..Usage::default()
                },
            )
        }
        // Each chunk may carry `usageMetadata`; the last one counts. Its
        // `candidatesTokenCount` leaves the thoughts out.
        Dialect::Gemini => events
            .iter()
            .rev()
            .find_map(|chunk| chunk.get("usageMetadata"))
            .map(|usage| {
                let thoughts = count(usage, "/thoughtsTokenCount");
                Usage {
                    input_tokens: count(usage, "/promptTokenCount"),
                    output_tokens: count(usage, "/candidatesTokenCount") + thoughts,
                    reasoning_tokens: thoughts,
                    cached_input_tokens: count(usage, "/cachedContentTokenCount"),
                    ..Usage::default()
                }
            }),
    }
}
