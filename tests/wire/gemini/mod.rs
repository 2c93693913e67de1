//! Gemini `streamGenerateContent?alt=sse` (`type: gemini`): every event a whole
//! `GenerateContentResponse`, `\r\n`-framed as Google sends it, with no end marker.
//! This module writes the protocol's bytes; the tests are in `streaming` (calls that
//! complete) and `errors` (calls that fail).

use massgen::config::BackendKind;
use serde_json::{Value, json};

use crate::harness::Protocol;
use crate::mock_llm::Reply;

mod errors;
mod options;
mod server_tools;
mod streaming;
mod text_workflow;

const MODEL: &str = "gemini-2.5-flash";
const PATH: &str = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
/// A Gemini 3 thought signature (opaque base64).
const SIGNATURE: &str = "CiQB0e2Kb3fI0Tg1Kx9yT1m3ZgYQ8Kq2o5mN1d7e+VqvS4pXyZ0KcgEB0e2Kbw==";

/// One `data:` event as Google frames it.
fn event(response: &Value) -> String {
    format!("data: {response}\r\n\r\n")
}

/// A `GenerateContentResponse` with these parts, finish reason and usage.
fn response(parts: Value, finish: Option<&str>, usage: Option<Value>) -> Value {
    let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
    if let Some(reason) = finish {
        candidate["finishReason"] = json!(reason);
    }
    let mut response = json!({
        "candidates": [candidate],
        "modelVersion": MODEL,
        "responseId": "Ra3yaOjvM5mZ1dkPn8ar6A4"
    });
    if let Some(usage) = usage {
        response["usageMetadata"] = usage;
    }
    response
}

fn usage(prompt: u64, candidates: u64, thoughts: u64, cached: u64) -> Value {
    let mut usage = json!({
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + thoughts,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}]
    });
    if thoughts > 0 {
        usage["thoughtsTokenCount"] = json!(thoughts);
    }
    if cached > 0 {
        usage["cachedContentTokenCount"] = json!(cached);
        usage["cacheTokensDetails"] = json!([{"modality": "TEXT", "tokenCount": cached}]);
    }
    usage
}

fn text_events(words: &[&str]) -> Vec<String> {
    let last = words.len().saturating_sub(1);
    words
        .iter()
        .enumerate()
        .map(|(at, word)| {
            if at == last {
                event(&response(
                    json!([{"text": word}]),
                    Some("STOP"),
                    Some(usage(12, 5, 0, 0)),
                ))
            } else {
                event(&response(
                    json!([{"text": word}]),
                    None,
                    Some(json!({"promptTokenCount": 12, "totalTokenCount": 12})),
                ))
            }
        })
        .collect()
}

fn text_reply(words: &[&str]) -> Reply {
    Reply::sse(&text_events(words))
}

fn call_part(name: &str, args: Value, id: Option<&str>, signature: Option<&str>) -> Value {
    let mut part = json!({"functionCall": {"name": name, "args": args}});
    if let Some(id) = id {
        part["functionCall"]["id"] = json!(id);
    }
    if let Some(signature) = signature {
        part["thoughtSignature"] = json!(signature);
    }
    part
}

fn api_error(code: u16, status: &str, message: &str) -> Value {
    json!({"error": {"code": code, "message": message, "status": status}})
}

/// An error reply whose HTTP status is the error's `code`.
fn error_reply(code: u16, status: &str, message: &str) -> Reply {
    Reply::status(code, &api_error(code, status, message).to_string())
}

pub(crate) const GEMINI: Protocol = Protocol {
    kind: BackendKind::Gemini,
    model: MODEL,
    path: "",
    text_reply,
};
