//! The real binary against a mock model server nobody here wrote: LLMock from PyPI (pinned
//! in `tests/peers/requirements.txt`, installed by `.ci/run`). For each wire protocol
//! (OpenAI Responses, Chat Completions, Anthropic Messages, Gemini; and Chat Completions as
//! xAI serves it) one agent runs a whole default turn on it (answer, vote, final
//! presentation), and the usage massgen records for each model call is the usage the mock
//! reported in that call's stream.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../cli/common.rs"]
mod cli_common;
#[path = "../peers/harness.rs"]
#[allow(dead_code)]
mod harness;
mod llmock;
mod reported;
#[path = "../support/mod.rs"]
mod support;
mod tap;

use std::path::PathBuf;

use massgen::protocol::Usage;
use serde_json::{Value, json};

use cli_common::describe;
use llmock::Llmock;
use reported::Dialect;
use support::sandbox::{Sandbox, text};
use tap::Tap;

/// One agent on one protocol.
struct Case {
    agent: &'static str,
    /// The backend's `type` and `model`, as YAML flow-map entries.
    backend: &'static str,
    /// Appended to the server's address to make the config's `base_url`, as LLMock's
    /// README gives it for that provider's SDK.
    base: &'static str,
    /// The path every model call must reach (LLMock's route for the protocol).
    endpoint: &'static str,
    dialect: Dialect,
}

const QUESTION: &str = "What is 2+2?";

fn answer(case: &Case) -> String {
    format!("2 + 2 = 4 (first answer from {}).", case.agent)
}

fn presentation(case: &Case) -> String {
    format!(
        "The answer is 4, presented by {} through LLMock.",
        case.agent
    )
}

/// What the mock model says, in order: it answers, votes for its own answer (a lone
/// agent's is the only one, offered as `agent1`), then presents in plain text. Each reply
/// matches only this protocol's path, so a call that went elsewhere finds none.
fn script(case: &Case) -> Vec<Value> {
    let only_here = json!({ "path": case.endpoint });
    vec![
        json!({"type": "reply", "match": only_here,
               "tool_calls": [{"name": "new_answer", "arguments": {"content": answer(case)}}]}),
        json!({"type": "reply", "match": only_here,
               "tool_calls": [{"name": "vote",
                               "arguments": {"agent_id": "agent1", "reason": "It is right."}}]}),
        json!({"type": "reply", "match": only_here, "text": presentation(case)}),
    ]
}

fn config(case: &Case, server: &str) -> String {
    format!(
        "agents:\n  - id: {}\n    backend: {{{}, base_url: \"{server}{}\", api_key: llmock-key}}\n",
        case.agent, case.backend, case.base
    )
}

/// The value after `NAME: ` on the `--automation` line that starts with it.
fn value<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no {name} line in:\n{stdout}"))
}

/// The `usage` events massgen logged for `agent`, one per model call, in order.
fn logged_usage(log_dir: &std::path::Path, agent: &str) -> Vec<Usage> {
    let events = std::fs::read_to_string(log_dir.join("events.jsonl")).unwrap();
    events
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|event| event["agent"] == agent && event["msg"]["type"] == "usage")
        .map(|event| serde_json::from_value(event["msg"]["usage"].clone()).unwrap())
        .collect()
}

fn one_turn(case: &Case) {
    let Some(mock) = Llmock::start() else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let tap = runtime.block_on(Tap::start(&mock.url));
    runtime.block_on(mock.script(&script(case)));

    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", &config(case, &tap.url));
    let output = sandbox
        .massgen()
        .args(["--automation", "--config", "run.yaml", QUESTION])
        .output()
        .unwrap();
    let context = || format!("{}\nllmock:\n{}", describe(&output), mock.output());
    assert_eq!(output.status.code(), Some(0), "{}", context());

    // The turn completed with the mock's presentation as the final answer.
    let stdout = text(&output.stdout);
    assert_eq!(value(&stdout, "WINNER"), case.agent, "{}", context());
    let answer_file = PathBuf::from(value(&stdout, "ANSWER_FILE"));
    assert_eq!(
        std::fs::read_to_string(&answer_file).unwrap(),
        presentation(case)
    );

    // Three calls, each to the protocol's own endpoint, each consuming its scripted reply.
    let exchanges = tap.exchanges();
    let paths: Vec<&str> = exchanges
        .iter()
        .map(|exchange| exchange.path.split('?').next().unwrap_or_default())
        .collect();
    assert_eq!(paths, [case.endpoint; 3], "{}", context());
    assert!(exchanges.iter().all(|exchange| exchange.status == 200));
    assert_eq!(runtime.block_on(mock.pending()), Vec::<Value>::new());

    // What massgen recorded per call is exactly what the mock reported in that stream.
    let reported: Vec<Usage> = exchanges
        .iter()
        .map(|exchange| {
            reported::usage(case.dialect, &exchange.body)
                .unwrap_or_else(|| panic!("the mock reported no usage in:\n{}", exchange.body))
        })
        .collect();
    assert!(
        reported
            .iter()
            .all(|usage| usage.input_tokens > 0 && usage.output_tokens > 0),
        "{reported:?}"
    );
    let log_dir = PathBuf::from(value(&stdout, "LOG_DIR"));
    assert_eq!(
        logged_usage(&log_dir, case.agent),
        reported,
        "massgen's usage events (left) against the mock's reports (right)"
    );

    // And the turn's totals add them up.
    let metrics: Value =
        serde_json::from_slice(&std::fs::read(log_dir.join("metrics_summary.json")).unwrap())
            .unwrap();
    let totals = &metrics["agents"][case.agent]["token_usage"];
    let sum = |field: fn(&Usage) -> u64| reported.iter().map(field).sum::<u64>();
    assert_eq!(totals["input_tokens"], sum(|usage| usage.input_tokens));
    assert_eq!(totals["output_tokens"], sum(|usage| usage.output_tokens));
}

#[test]
fn openai_responses_completes_a_turn_with_the_mocks_usage() {
    one_turn(&Case {
        agent: "responses",
        backend: "type: openai, model: gpt-4o",
        base: "/v1",
        endpoint: "/v1/responses",
        dialect: Dialect::Responses,
    });
}

#[test]
fn chat_completions_completes_a_turn_with_the_mocks_usage() {
    one_turn(&Case {
        agent: "chat",
        backend: "type: chatcompletion, model: gpt-4o-mini",
        base: "/v1",
        endpoint: "/v1/chat/completions",
        dialect: Dialect::Chat,
    });
}

#[test]
fn anthropic_messages_completes_a_turn_with_the_mocks_usage() {
    one_turn(&Case {
        agent: "messages",
        backend: "type: claude, model: claude-sonnet-4-5",
        base: "/anthropic",
        endpoint: "/anthropic/v1/messages",
        dialect: Dialect::Anthropic,
    });
}

#[test]
fn gemini_completes_a_turn_with_the_mocks_usage() {
    one_turn(&Case {
        agent: "gemini",
        backend: "type: gemini, model: gemini-2.5-flash",
        base: "/gemini",
        endpoint: "/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        dialect: Dialect::Gemini,
    });
}

/// Chat Completions as xAI serves it (LLMock mimics its quirks under `/xai/v1`).
#[test]
fn grok_completes_a_turn_with_the_mocks_usage() {
    one_turn(&Case {
        agent: "grok",
        backend: "type: grok, model: grok-4",
        base: "/xai/v1",
        endpoint: "/xai/v1/chat/completions",
        dialect: Dialect::Chat,
    });
}
