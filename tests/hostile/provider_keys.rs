//! Hostile: a provider that echoes every secret it can know — the API key, a password in
//! `base_url`, an MCP header token and an MCP URL token — in streamed text cut into small
//! pieces, in reasoning, in tool arguments, in a vote and in an error body. None of them
//! may reach the screen, a log, the session store or `execution_metadata.yaml`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::provider_stream::mock_llm::{MockLlm, Recorded, Reply, data};
use crate::support::sandbox::{Sandbox, text};

const API_KEY: &str = "sk-echoed-key-0123456789";
const BASE_PASSWORD: &str = "basepass-0123456789";
const HEADER_TOKEN: &str = "mcp-header-token-0123456789";
const URL_TOKEN: &str = "mcpquery-0123456789";
const SECRETS: [&str; 4] = [API_KEY, BASE_PASSWORD, HEADER_TOKEN, URL_TOKEN];

fn everything() -> String {
    format!("key {API_KEY}, password {BASE_PASSWORD}, header {HEADER_TOKEN}, url {URL_TOKEN}.")
}

/// `text` in pieces of three bytes, each its own chunk, as reasoning or as content.
fn pieces(text: &str, field: &str) -> Vec<String> {
    text.as_bytes()
        .chunks(3)
        .map(|piece| {
            let piece = String::from_utf8_lossy(piece);
            data(&json!({"choices": [{"index": 0, "delta": {field: piece}}]}).to_string())
        })
        .collect()
}

fn tool_call(name: &str, arguments: &Value) -> Vec<String> {
    let arguments = arguments.to_string();
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    vec![
        data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": head}}
        ]}}]}).to_string()),
        data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": tail}}
        ]}}]}).to_string()),
        data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}).to_string()),
        "data: [DONE]\n\n".to_string(),
    ]
}

fn finished(mut events: Vec<String>) -> Reply {
    events.push(data(
        &json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}).to_string(),
    ));
    events.push("data: [DONE]\n\n".to_string());
    Reply::sse(&events)
}

/// Fails once with the secrets in its error body, then answers, votes and presents, each
/// time streaming every secret in small pieces first.
async fn echoing_model() -> MockLlm {
    let calls = Arc::new(AtomicUsize::new(0));
    MockLlm::with_responder(move |request: &Recorded| {
        let call = calls.fetch_add(1, Ordering::SeqCst);
        if call == 0 {
            return Reply::status(
                500,
                &json!({"error": {"message": everything()}}).to_string(),
            );
        }
        let body = request.body.to_string();
        let mut events = pieces(&everything(), "reasoning_content");
        events.extend(pieces(&everything(), "content"));
        if !body.contains("\"new_answer\"") {
            return finished(events);
        }
        events.extend(if call > 1 {
            tool_call(
                "vote",
                &json!({"agent_id": "agent1", "reason": everything()}),
            )
        } else {
            tool_call("new_answer", &json!({"content": everything()}))
        });
        Reply::sse(&events)
    })
    .await
}

fn config(base_url: &str) -> String {
    let authority = base_url.trim_start_matches("http://");
    format!(
        "agents:
  - id: solo
    backend:
      type: chatcompletion
      model: gpt-5
      api_key: {API_KEY}
      base_url: \"http://massuser:{BASE_PASSWORD}@{authority}/v1\"
      max_retries: 2
      mcp_servers:
        - name: remote
          type: streamable-http
          url: \"http://127.0.0.1:9/mcp?token={URL_TOKEN}\"
          headers:
            Authorization: \"Bearer {HEADER_TOKEN}\"
"
    )
}

/// Every file under `dir` but `skip`, with its contents.
fn files_under(dir: &Path, skip: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            files_under(&path, skip, out);
        } else if kind.is_file() && path != skip {
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
}

fn assert_no_secret(what: &str, bytes: &[u8]) {
    let shown = text(bytes);
    for secret in SECRETS {
        assert!(!shown.contains(secret), "{what} holds `{secret}`:\n{shown}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echoed_secrets_reach_no_screen_log_or_file() {
    let model = echoing_model().await;
    let sandbox = Sandbox::new();
    let config_path = sandbox.write("keys.yaml", &config(&model.base_url));
    let mut command = sandbox.massgen();
    command
        .args(["--config", "keys.yaml", "--display", "plain", "--debug"])
        .arg("What is 2+2?")
        .timeout(Duration::from_secs(60))
        .write_stdin("");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("[REDACTED]") && stdout.contains("── Final answer"),
        "the model's echoes were shown, redacted, through to the final answer:\n{stdout}\n{}",
        text(&output.stderr)
    );
    assert_no_secret("stdout", &output.stdout);
    assert_no_secret("stderr", &output.stderr);
    let mut files = Vec::new();
    files_under(&sandbox.root, &config_path, &mut files);
    for name in [
        "events.jsonl",
        "massgen_debug.log",
        "execution_metadata.yaml",
    ] {
        assert!(
            files.iter().any(|(path, _)| path.ends_with(name)),
            "{name} was written: {:?}",
            files.iter().map(|(path, _)| path).collect::<Vec<_>>()
        );
    }
    for (path, bytes) in &files {
        assert_no_secret(path, bytes);
    }
    let events = files
        .iter()
        .find(|(path, _)| path.ends_with("events.jsonl"))
        .map(|(_, bytes)| text(bytes))
        .unwrap();
    assert!(events.contains("[REDACTED]"), "{events}");
}

#[test]
fn validate_names_a_bad_base_url_without_its_password() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "bad.yaml",
        &format!(
            "agents:\n  - id: a\n    backend:\n      type: chatcompletion\n      model: m\n      \
             api_key: {API_KEY}\n      base_url: \"ftp://massuser:{BASE_PASSWORD}@example.com/v1\"\n"
        ),
    );
    for args in [
        vec!["--validate", "bad.yaml"],
        vec!["--config", "bad.yaml", "hi"],
    ] {
        let output = sandbox.massgen().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains("base_url"), "{args:?}: {stderr}");
        assert_no_secret("stderr", &output.stderr);
        assert_no_secret("stdout", &output.stdout);
    }
}
