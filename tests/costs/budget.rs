//! The cost budget (`--max-cost`, `orchestrator.max_cost_usd`) over real HTTP: a priced
//! model answers cheaply, then a call reports enough tokens to pass the budget — the turn
//! stops calling models and presents the stored answer; a model of unknown price is said
//! to be uncountable instead of counted as free.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::mock_llm::{MockLlm, Recorded, Reply, data};
use crate::support::sandbox::{Sandbox, text};
use serde_json::json;

/// A Chat Completions tool call reporting `prompt_tokens` of usage.
fn tool_call(name: &str, arguments: &serde_json::Value, prompt_tokens: u64) -> Reply {
    Reply::sse(&[
        data(
            &json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "call_1", "type": "function",
                 "function": {"name": name, "arguments": arguments.to_string()}}
            ]}}]})
            .to_string(),
        ),
        data(
            &json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                     "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 10}})
            .to_string(),
        ),
        "data: [DONE]\n\n".to_string(),
    ])
}

/// Answers cheaply first, then every call costs a million prompt tokens.
async fn model() -> (MockLlm, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let server = MockLlm::with_responder(move |_: &Recorded| {
        if counted.fetch_add(1, Ordering::SeqCst) == 0 {
            tool_call(
                "new_answer",
                &json!({"content": "The stored answer: 4."}),
                100,
            )
        } else {
            tool_call(
                "vote",
                &json!({"agent_id": "agent1", "reason": "fine"}),
                1_000_000,
            )
        }
    })
    .await;
    (server, calls)
}

fn config(base_url: &str, model: &str) -> String {
    format!(
        "agent:\n  id: solo\n  backend: {{type: chatcompletion, model: {model}, api_key: \
         sk-test-0123456789, base_url: \"{base_url}/v1\", max_retries: 0}}\n"
    )
}

async fn run(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    let mut command = sandbox.massgen();
    command.args(args).write_stdin("");
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_stops_the_calls_and_presents_the_stored_answer() {
    let (server, calls) = model().await;
    let sandbox = Sandbox::new();
    sandbox.write("priced.yaml", &config(&server.base_url, "gpt-4o"));
    let output = run(
        &sandbox,
        &[
            "--config",
            "priced.yaml",
            "--display",
            "plain",
            "--max-cost",
            "1",
            "q",
        ],
    )
    .await;
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert!(
        stdout.contains("💰 cost budget of $1.00 reached"),
        "{stdout}"
    );
    assert!(stdout.contains("The stored answer: 4."), "{stdout}");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "no presentation call after the budget"
    );
    let status: serde_json::Value = serde_json::from_slice(
        &std::fs::read(sandbox.run_log_dir().join("turn_1/attempt_1/status.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        status["costs"]["budget_reached"]["budget_usd"], 1.0,
        "{status}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_config_budget_works_and_an_unpriced_model_is_not_counted_as_free() {
    let (server, calls) = model().await;
    let sandbox = Sandbox::new();
    let yaml = format!(
        "orchestrator: {{max_cost_usd: 1}}\n{}",
        config(&server.base_url, "gpt-4o")
    );
    sandbox.write("priced.yaml", &yaml);
    let output = run(
        &sandbox,
        &["--config", "priced.yaml", "--display", "quiet", "q"],
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("the cost budget of $1.00 was reached"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    let (server, _) = model().await;
    let sandbox = Sandbox::new();
    sandbox.write(
        "unpriced.yaml",
        &config(&server.base_url, "no-such-model-anywhere"),
    );
    let output = run(
        &sandbox,
        &[
            "--config",
            "unpriced.yaml",
            "--display",
            "plain",
            "--max-cost",
            "1",
            "q",
        ],
    )
    .await;
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("the cost budget cannot count solo's calls: its model's price is unknown"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("💰"),
        "an unknown price never ends the turn: {stdout}"
    );
}

#[test]
fn a_budget_of_zero_or_less_is_refused() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .massgen()
        .args(["--max-cost", "0", "q"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("above 0"),
        "{}",
        text(&output.stderr)
    );
    sandbox.write(
        "bad.yaml",
        "orchestrator: {max_cost_usd: -2}\nagent: {id: a, backend: {type: scripted}}\n",
    );
    let output = sandbox
        .massgen()
        .args(["--validate", "bad.yaml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("orchestrator.max_cost_usd` must be more than 0"),
        "{}",
        text(&output.stderr)
    );
}

/// Offline: a fast, cheap scripted agent answers at once; a slow one named after a very
/// expensive model passes the budget with its first call. The cheap agent's answer is
/// presented as it is and the turn completes.
#[test]
fn a_scripted_turn_ends_at_the_budget_with_the_answer_so_far() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "priced.yaml",
        "orchestrator: {max_cost_usd: 0.01}
agents:
  - id: cheap
    backend: {type: scripted, model: gpt-4o-mini, tokens_per_second: 0, answers: [\"Cheap and right: 4.\"]}
  - id: pricey
    backend: {type: scripted, model: o1-pro, tokens_per_second: 0, first_token_ms: 300, answers: [\"Pricey: 4.\"]}
",
    );
    let output = sandbox
        .massgen()
        .args(["--config", "priced.yaml", "--automation", "q"])
        .write_stdin("")
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert!(stdout.contains("WINNER: cheap"), "{stdout}");
    assert!(
        text(&output.stderr).contains("the cost budget of $0.0100 was reached"),
        "{}",
        text(&output.stderr)
    );
    assert!(
        stdout.contains("ANSWER_PREVIEW: Cheap and right: 4."),
        "{stdout}"
    );
    let log_dir = stdout
        .lines()
        .find_map(|line| line.strip_prefix("LOG_DIR: "))
        .unwrap();
    let status: serde_json::Value = serde_json::from_slice(
        &std::fs::read(std::path::Path::new(log_dir).join("status.json")).unwrap(),
    )
    .unwrap();
    let spent = status["costs"]["budget_reached"]["spent_usd"]
        .as_f64()
        .unwrap();
    assert!(spent >= 0.01, "{status}");
    let events =
        std::fs::read_to_string(std::path::Path::new(log_dir).join("events.jsonl")).unwrap();
    assert!(
        !events.contains("\"pricey\",\"msg\":{\"type\":\"answer_submitted\""),
        "the pricey agent never got to answer"
    );
}
