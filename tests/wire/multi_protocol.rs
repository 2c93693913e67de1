//! A whole turn over real HTTP: three agents on three wire protocols (Chat Completions,
//! Anthropic Messages, Gemini), each against its own local mock server that plays a model:
//! answer first, then vote, then present.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::mock_llm::{MockLlm, Recorded, Reply, data, typed};
use crate::support::{final_answer, outcome, run_once, winner};
use massgen::protocol::{EventMsg, TurnOutcome};
use serde_json::{Value, json};

#[derive(Clone, Copy)]
pub(crate) enum Wire {
    Chat,
    Anthropic,
    Gemini,
}

impl Wire {
    /// The two protocols the workflow-tool wire tests run on.
    pub(crate) const CHAT_AND_ANTHROPIC: [Wire; 2] = [Wire::Chat, Wire::Anthropic];

    /// An agent's inline `backend:` block on this protocol, against the mock at `base_url`.
    pub(crate) fn backend(self, base_url: &str) -> String {
        match self {
            Wire::Chat => format!(
                "{{type: grok, model: grok-4-fast-reasoning, api_key: xai-test, \
                 base_url: \"{base_url}/v1\"}}"
            ),
            Wire::Anthropic => format!(
                "{{type: claude, model: claude-sonnet-4-5, api_key: sk-ant-test, \
                 base_url: \"{base_url}\"}}"
            ),
            Wire::Gemini => format!(
                "{{type: gemini, model: gemini-2.5-flash, api_key: gm-test, \
                 base_url: \"{base_url}\"}}"
            ),
        }
    }
}

/// The anonymous ids the `vote` tool offers, wherever the protocol puts the schema.
pub(crate) fn vote_targets(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Object(map) => {
            if let Some(targets) = map
                .get("properties")
                .and_then(|properties| properties.get("agent_id"))
                .and_then(|agent_id| agent_id.get("enum"))
                .and_then(Value::as_array)
            {
                return Some(
                    targets
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                );
            }
            map.values().find_map(vote_targets)
        }
        Value::Array(items) => items.iter().find_map(vote_targets),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => None,
    }
}

/// A model that answers on its first call, votes for the first offered answer after that,
/// and presents when no workflow tools are offered.
pub(crate) async fn model(wire: Wire, name: &'static str) -> MockLlm {
    let calls = AtomicUsize::new(0);
    MockLlm::with_responder(move |request: &Recorded| {
        let call = calls.fetch_add(1, Ordering::SeqCst);
        let offers_workflow = request.body.to_string().contains("\"new_answer\"");
        if !offers_workflow {
            return text(wire, &format!("Final answer from {name}: 4."));
        }
        match vote_targets(&request.body).filter(|targets| call > 0 && !targets.is_empty()) {
            Some(targets) => tool(
                wire,
                "vote",
                &json!({"agent_id": targets[0], "reason": format!("{name} agrees")}),
            ),
            None => tool(
                wire,
                "new_answer",
                &json!({"content": format!("{name} says 2+2=4.")}),
            ),
        }
    })
    .await
}

pub(crate) fn tool(wire: Wire, name: &str, arguments: &Value) -> Reply {
    let arguments = arguments.to_string();
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    Reply::sse(&match wire {
        Wire::Chat => vec![
            data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": head}}
            ]}}]}).to_string()),
            data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "function": {"arguments": tail}}
            ]}}]}).to_string()),
            data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                         "usage": {"prompt_tokens": 100, "completion_tokens": 20}}).to_string()),
            "data: [DONE]\n\n".to_string(),
        ],
        Wire::Anthropic => vec![
            typed(&json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "usage": {"input_tokens": 100, "output_tokens": 1}}})),
            typed(&json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}})),
            typed(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": head}})),
            typed(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": tail}})),
            typed(&json!({"type": "content_block_stop", "index": 0})),
            typed(&json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}})),
            typed(&json!({"type": "message_stop"})),
        ],
        Wire::Gemini => vec![data(&json!({
            "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": serde_json::from_str::<Value>(&arguments).unwrap()}}]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
        }).to_string())],
    })
}

pub(crate) fn text(wire: Wire, text: &str) -> Reply {
    let (head, tail) = text.split_at(text.len() / 2);
    Reply::sse(&match wire {
        Wire::Chat => vec![
            data(&json!({"choices": [{"index": 0, "delta": {"content": head}}]}).to_string()),
            data(&json!({"choices": [{"index": 0, "delta": {"content": tail}, "finish_reason": "stop"}]}).to_string()),
            "data: [DONE]\n\n".to_string(),
        ],
        Wire::Anthropic => vec![
            typed(&json!({"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 50, "output_tokens": 1}}})),
            typed(&json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})),
            typed(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": head}})),
            typed(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": tail}})),
            typed(&json!({"type": "content_block_stop", "index": 0})),
            typed(&json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 10}})),
            typed(&json!({"type": "message_stop"})),
        ],
        Wire::Gemini => vec![
            data(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": head}]}, "index": 0}]}).to_string()),
            data(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": tail}]}, "finishReason": "STOP", "index": 0}],
                         "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 10}}).to_string()),
        ],
    })
}

#[tokio::test]
async fn three_agents_on_three_protocols_reach_a_winner_and_a_final_answer() {
    let grok = model(Wire::Chat, "grok").await;
    let claude = model(Wire::Anthropic, "claude").await;
    let gemini = model(Wire::Gemini, "gemini").await;
    let yaml = format!(
        "agents:
  - id: alpha
    backend: {{type: grok, model: grok-4-fast-reasoning, api_key: xai-test, base_url: \"{}/v1\"}}
  - id: beta
    backend: {{type: claude, model: claude-sonnet-4-5, api_key: sk-ant-test, base_url: \"{}\"}}
  - id: gamma
    backend: {{type: gemini, model: gemini-2.5-flash, api_key: gm-test, base_url: \"{}\"}}
",
        grok.base_url, claude.base_url, gemini.base_url
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;

    assert_eq!(outcome(&events), TurnOutcome::Completed);
    // Every agent votes for agent1, which is `alpha`.
    assert_eq!(winner(&events).as_deref(), Some("alpha"));
    let (final_text, fallback) = final_answer(&events).unwrap();
    assert_eq!(final_text, "Final answer from grok: 4.");
    assert!(!fallback);

    let answers: Vec<&str> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AnswerSubmitted { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    for name in ["grok", "claude", "gemini"] {
        assert!(
            answers.contains(&format!("{name} says 2+2=4.").as_str()),
            "{answers:?}"
        );
    }
    // Usage from every protocol reached the event stream, priced where the model is known.
    let priced: Vec<(String, Option<f64>)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Usage { cost_usd, .. } => {
                Some((event.agent.as_ref().unwrap().to_string(), *cost_usd))
            }
            _ => None,
        })
        .collect();
    for agent in ["alpha", "beta", "gamma"] {
        assert!(priced.iter().any(|(who, _)| who == agent), "{priced:?}");
    }
    assert!(
        priced
            .iter()
            .any(|(who, cost)| who == "beta" && cost.is_some_and(|cost| cost > 0.0)),
        "claude-sonnet-4-5 is in the price table: {priced:?}"
    );
    // Each round's calls are summed up per agent.
    for agent in ["alpha", "beta", "gamma"] {
        let rounds: Vec<(u64, u32, bool)> = events
            .iter()
            .filter(|event| {
                event
                    .agent
                    .as_ref()
                    .is_some_and(|who| who.as_str() == agent)
            })
            .filter_map(|event| match &event.msg {
                EventMsg::RoundUsage { usage, calls, .. } => {
                    Some((usage.total(), *calls, usage.estimated))
                }
                _ => None,
            })
            .collect();
        assert!(!rounds.is_empty(), "{agent}");
        // Every workflow call of these mock models reports 100 + 20 tokens; a reply that
        // reports none (the winner's presentation) is estimated, and says so.
        assert!(
            rounds
                .iter()
                .all(|(total, calls, estimated)| *estimated || *total == 120 * u64::from(*calls)),
            "{agent}: {rounds:?}"
        );
        assert!(
            rounds.iter().filter(|(.., estimated)| *estimated).count() <= 1,
            "only the presentation lacks usage: {agent}: {rounds:?}"
        );
    }
    // Each server was called in its own protocol.
    assert!(grok.requests()[0].path.ends_with("/v1/chat/completions"));
    assert_eq!(claude.requests()[0].path, "/v1/messages");
    assert_eq!(
        gemini.requests()[0].path,
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    );
}

#[tokio::test]
async fn an_agent_whose_provider_rejects_its_key_is_dropped_and_the_others_finish() {
    let rejecting = MockLlm::with_responder(|_| {
        Reply::status(
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        )
    })
    .await;
    let gemini = model(Wire::Gemini, "gemini").await;
    let yaml = format!(
        "agents:
  - id: alpha
    backend: {{type: claude, model: claude-sonnet-4-5, api_key: sk-ant-wrong, base_url: \"{}\"}}
  - id: beta
    backend: {{type: gemini, model: gemini-2.5-flash, api_key: gm-test, base_url: \"{}\"}}
",
        rejecting.base_url, gemini.base_url
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("beta"));
    let error = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::AgentError { message } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        error.starts_with("invalid key for Anthropic: check `api_key` in the config"),
        "{error}"
    );
    assert!(!error.contains("sk-ant-wrong"), "{error}");
    // A rejected key is not retried.
    assert_eq!(rejecting.requests().len(), 1);
    let logged = serde_json::to_string(&events).unwrap();
    assert!(!logged.contains("sk-ant-wrong") && !logged.contains("gm-test"));
}

/// Keys planted in the environment and in the config reach the providers, and no file under
/// `.massgen/`, no log line and no output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_api_keys_never_reach_a_file_a_log_or_the_screen() {
    const XAI: &str = "xai-PLANTED-0f1e2d3c4b5a69788796a5b4";
    const ANTHROPIC: &str = "sk-ant-PLANTED-99887766554433221100";
    const GEMINI: &str = "AIza-PLANTED-aabbccddeeff00112233";
    let grok = model(Wire::Chat, "grok").await;
    let claude = model(Wire::Anthropic, "claude").await;
    let gemini = model(Wire::Gemini, "gemini").await;
    let sandbox = crate::support::sandbox::Sandbox::new();
    sandbox.write(
        "keys.yaml",
        &format!(
            "agents:
  - id: alpha
    backend: {{type: grok, model: grok-4-fast-reasoning, base_url: \"{}/v1\"}}
  - id: beta
    backend: {{type: claude, model: claude-sonnet-4-5, base_url: \"{}\"}}
  - id: gamma
    backend: {{type: gemini, model: gemini-2.5-flash, api_key: \"${{PLANTED_GEMINI}}\", base_url: \"{}\"}}
",
            grok.base_url, claude.base_url, gemini.base_url
        ),
    );
    let mut command = sandbox.massgen();
    command
        .env("XAI_API_KEY", XAI)
        .env("ANTHROPIC_API_KEY", ANTHROPIC)
        .env("PLANTED_GEMINI", GEMINI)
        .env("RUST_LOG", "massgen=trace")
        .args([
            "--config",
            "keys.yaml",
            "--display",
            "plain",
            "--debug",
            "What is 2+2?",
        ]);
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // The keys did go out, to the providers only.
    assert_eq!(
        grok.requests()[0].header("authorization"),
        Some(format!("Bearer {XAI}").as_str())
    );
    assert_eq!(claude.requests()[0].header("x-api-key"), Some(ANTHROPIC));
    assert_eq!(gemini.requests()[0].header("x-goog-api-key"), Some(GEMINI));

    let mut files = 0;
    let mut names = Vec::new();
    for entry in walkdir::WalkDir::new(sandbox.massgen_dir()) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        files += 1;
        names.push(entry.file_name().to_string_lossy().into_owned());
        let contents = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
        for key in [XAI, ANTHROPIC, GEMINI, "PLANTED"] {
            assert!(
                !contents.contains(key),
                "{key} found in {}",
                entry.path().display()
            );
        }
    }
    assert!(files > 10, "the run wrote its logs: {files} files");
    for name in [
        "massgen_debug.log",
        "status.json",
        "coordination_table.txt",
        "events.jsonl",
    ] {
        assert!(names.iter().any(|file| file == name), "{name} was checked");
    }
    for key in [XAI, ANTHROPIC, GEMINI] {
        assert!(
            !stdout.contains(key) && !stderr.contains(key),
            "{key} was printed"
        );
    }
}
