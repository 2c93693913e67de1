//! A provider's context-length refusal in a whole turn over the wire (vLLM's exact error
//! body): the agent's conversation is compressed once and the call retried, and the turn
//! completes; refused again after that, the agent is dropped as before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use crate::planning::{Act, Seen, Wire, coordinate, serve};
use crate::support::{Scenario, outcome, transcript};
use massgen::protocol::{CompressionReason, Event, EventMsg, TurnOutcome};

/// vLLM's reply to a prompt longer than the model's window.
const REFUSAL: &str = r#"{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}"#;
const LOOKUPS: usize = 6;

fn yaml(server: &crate::mock_llm::MockLlm) -> String {
    format!(
        "agents:\n  - id: solo\n    backend: {{type: vllm, model: solo, base_url: \"{}/v1\", max_retries: 0, context_window: 32768}}\n",
        server.base_url
    )
}

/// Looks things up six times, then the server refuses the prompt as too long; once it sees
/// the compressed record (if `recovers`), it answers.
fn model(seen: &Seen, recovers: bool) -> Act {
    coordinate(seen, |seen| {
        if recovers && seen.says("[CONTEXT RECOVERY") {
            return None;
        }
        let looked = seen
            .calls
            .iter()
            .filter(|call| call.name == "lookup")
            .count();
        Some(if looked < LOOKUPS {
            Act::call("lookup", json!({"page": looked}))
        } else {
            Act::Refuse(400, REFUSAL.into())
        })
    })
}

fn compressions(events: &[Event]) -> Vec<(CompressionReason, u32)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ContextCompressed {
                reason,
                messages_removed,
                window,
                ..
            } => {
                assert_eq!(*window, 32768);
                Some((*reason, *messages_removed))
            }
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_length_refusal_compresses_once_and_the_retry_finishes_the_turn() {
    let server = serve(Wire::Chat, |seen| model(seen, true)).await;
    let mut scenario = Scenario::start(&yaml(&server));
    let events = scenario.handle.run_turn("Look it up").await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    // Twelve messages after the question; MassGen keeps int(12 * 0.2) = 2.
    assert_eq!(
        compressions(&events),
        [(CompressionReason::ProviderError, 10)]
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::AgentError { .. }))
    );

    // The retry after the refusal: the record in the question, then the latest call and
    // its result only.
    let requests = server.requests();
    let refused = requests
        .iter()
        .position(|request| Seen::read(Wire::Chat, &request.body).calls.len() == LOOKUPS)
        .unwrap();
    let retry = &requests[refused + 1].body;
    let messages = retry["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "{retry}");
    let question = messages[1]["content"].as_str().unwrap();
    assert!(question.contains("Look it up"), "{question}");
    assert!(
        question.contains("Tool calls in them: lookup (5)."),
        "{question}"
    );
    assert_eq!(messages[3]["role"], "tool");

    // The event reached the turn's event log like every other event.
    let log = find_events_log(scenario.dir.path()).unwrap();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("\"type\":\"context_compressed\""), "{text}");
    assert!(text.contains("\"reason\":\"provider_error\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_again_after_compressing_the_agent_is_dropped() {
    let server = serve(Wire::Chat, |seen| model(seen, false)).await;
    let mut scenario = Scenario::start(&yaml(&server));
    let events = scenario.handle.run_turn("Look it up").await;
    assert_eq!(compressions(&events).len(), 1, "{:?}", transcript(&events));
    let error = events.iter().find_map(|event| match &event.msg {
        EventMsg::AgentError { message } => Some(message.clone()),
        _ => None,
    });
    assert!(
        error
            .as_deref()
            .unwrap_or_default()
            .contains("context window"),
        "{error:?}"
    );
    assert_ne!(outcome(&events), TurnOutcome::Completed);
}

fn find_events_log(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_events_log(&path) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|name| name == "events.jsonl") {
            return Some(path);
        }
    }
    None
}
