//! MassGen's own custom-tool example over the Anthropic wire: the wheel's
//! `claude_custom_tool_example.yaml`, its base URL pointed at a mock Claude that calls
//! `two_num_tool` (the wheel's `massgen/tool/_basic/_two_num_tool.py`), whose result must
//! reach the model in the next request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crate::mock_llm::{MockLlm, Recorded, Reply, typed};
use crate::support::{outcome, transcript};
use massgen::orchestrator::{self, RuntimeOptions, ToolSetup};
use massgen::protocol::TurnOutcome;
use serde_json::{Value, json};

const SUM: &str = "The sum of 123 and 456 is 579";

fn peer(relative: &str) -> Option<std::path::PathBuf> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{} is missing: .ci/run unpacks massgen/configs and massgen/tool from the wheel",
        path.display()
    );
    eprintln!("skipping: {} is missing", path.display());
    None
}

fn anthropic_tool(name: &str, input: &Value) -> Reply {
    Reply::sse(&[
        typed(
            &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ),
        typed(
            &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": format!("toolu_{name}"), "name": name, "input": {}}}),
        ),
        typed(
            &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
        ),
        typed(&json!({"type": "content_block_stop", "index": 0})),
        typed(
            &json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}}),
        ),
        typed(&json!({"type": "message_stop"})),
    ])
}

fn anthropic_text(text: &str) -> Reply {
    Reply::sse(&[
        typed(
            &json!({"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ),
        typed(
            &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        typed(
            &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ),
        typed(&json!({"type": "content_block_stop", "index": 0})),
        typed(
            &json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}),
        ),
        typed(&json!({"type": "message_stop"})),
    ])
}

/// Calls the tool first; once its result is in the request, answers with it; then votes
/// for that answer; presents when no workflow tool is offered.
fn claude(request: &Recorded) -> Reply {
    let body = request.body.to_string();
    if !body.contains("\"new_answer\"") {
        return anthropic_text(&format!("Final: {SUM}."));
    }
    if !body.contains(SUM) {
        return anthropic_tool("custom_tool__two_num_tool", &json!({"x": 123, "y": 456}));
    }
    if body.contains("\"vote\"")
        && body.contains("agent1")
        && body.contains(&format!("Answer: {SUM}"))
    {
        return anthropic_tool(
            "vote",
            &json!({"agent_id": "agent1", "reason": "it is right"}),
        );
    }
    anthropic_tool("new_answer", &json!({"content": format!("Answer: {SUM}.")}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn massgens_custom_tool_example_calls_two_num_tool_and_the_sum_reaches_the_model() {
    let Some(example) =
        peer("massgen-wheel/massgen/configs/tools/custom_tools/claude_custom_tool_example.yaml")
    else {
        return;
    };
    let Some(wheel_massgen) = peer("massgen-wheel/massgen/tool/_basic/_two_num_tool.py") else {
        return;
    };
    let mock = MockLlm::with_responder(claude).await;
    let yaml = std::fs::read_to_string(&example).unwrap().replace(
        "model: \"claude-sonnet-4-20250514\"",
        &format!(
            "model: \"claude-sonnet-4-20250514\"\n      api_key: sk-ant-test\n      base_url: \"{}\"",
            mock.base_url
        ),
    );
    assert!(
        yaml.contains(&mock.base_url),
        "the example changed shape:\n{yaml}"
    );
    // The example's `path: massgen/tool/...` is relative to the wheel's root: a config
    // beside a `massgen` that is the wheel's finds it there.
    let dir = tempfile::tempdir().unwrap();
    let massgen_dir = wheel_massgen.ancestors().nth(3).unwrap();
    std::os::unix::fs::symlink(massgen_dir, dir.path().join("massgen")).unwrap();
    let file = dir.path().join("claude_custom_tool_example.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let env = massgen::config::Env::default();
    let (config, _) = massgen::config::from_file(&file, &env)
        .unwrap()
        .into_runnable()
        .unwrap();
    let backends = massgen::backend::build_backends(&config, &env).unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::FromConfig {
            project_dir: dir.path().to_path_buf(),
        },
        RuntimeOptions {
            logs: None,
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let events = handle.run_turn("whats the sum of 123 and 456?").await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:#?}",
        transcript(&events)
    );
    let requests = mock.requests();
    let offered = requests[0].body.to_string();
    assert!(offered.contains("custom_tool__two_num_tool"), "{offered}");
    assert!(offered.contains("Add two numbers together."), "{offered}");
    let next = requests[1].body.to_string();
    assert!(next.contains("tool_result"), "{next}");
    assert!(
        next.contains(SUM),
        "the tool's result reaches the model: {next}"
    );
}
