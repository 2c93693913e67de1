//! A provider's context-length refusal in a whole turn over the wire (vLLM's exact error
//! body): the agent's model summarizes the older messages (a call without tools), the
//! conversation is compressed once with that summary in their place and the call retried,
//! and the turn completes; without a summary (the call failed or wrote nothing) their
//! transcript takes its place; refused again after that, the agent is dropped as before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use crate::planning::{Act, Seen, Wire, coordinate, serve};
use crate::support::{Scenario, outcome, transcript};
use massgen::protocol::{CompressionReason, Event, EventMsg, TurnOutcome};

/// vLLM's reply to a prompt longer than the model's window.
const REFUSAL: &str = r#"{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}"#;
const LOOKUPS: usize = 6;
/// What the model answers the summary request with, when it answers.
const SUMMARY: &str = "Pages 0 to 4 were looked up; page 5 is next.";

/// How the model treats the summary request: summarizes, fails, or writes nothing.
#[derive(Clone, Copy)]
enum Summarizer {
    Writes,
    Fails,
    WritesNothing,
}

fn yaml(server: &crate::mock_llm::MockLlm) -> String {
    format!(
        "agents:\n  - id: solo\n    backend: {{type: vllm, model: solo, base_url: \"{}/v1\", max_retries: 0, context_window: 32768}}\n",
        server.base_url
    )
}

/// Looks things up six times, then the server refuses the prompt as too long; once it sees
/// the compressed record (if `recovers`), it answers. A request without tools is the
/// summary request.
fn model(seen: &Seen, recovers: bool, summarizer: Summarizer) -> Act {
    if seen.tools.is_empty() {
        return match summarizer {
            Summarizer::Writes => Act::Text(SUMMARY.into()),
            Summarizer::Fails => Act::Refuse(500, r#"{"error":"overloaded"}"#.into()),
            Summarizer::WritesNothing => Act::Text(String::new()),
        };
    }
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

/// Every `ContextCompressed`: reason, messages removed, whether the model summarized them.
fn compressions(events: &[Event]) -> Vec<(CompressionReason, u32, bool)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ContextCompressed {
                reason,
                messages_removed,
                window,
                summarized,
                ..
            } => {
                assert_eq!(*window, 32768);
                Some((*reason, *messages_removed, *summarized))
            }
            _ => None,
        })
        .collect()
}

/// A turn refused once: what the server saw from the refusal on, and the turn's events.
struct Recovery {
    events: Vec<Event>,
    /// The requests after the refused one.
    after: Vec<serde_json::Value>,
    requests: usize,
    scenario: Scenario,
}

async fn refused_once(summarizer: Summarizer) -> Recovery {
    let server = serve(Wire::Chat, move |seen| model(seen, true, summarizer)).await;
    let mut scenario = Scenario::start(&yaml(&server));
    let events = scenario.handle.run_turn("Look it up").await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::AgentError { .. }))
    );
    let requests = server.requests();
    let refused = requests
        .iter()
        .position(|request| Seen::read(Wire::Chat, &request.body).calls.len() == LOOKUPS)
        .unwrap();
    Recovery {
        events,
        after: requests[refused + 1..]
            .iter()
            .map(|request| request.body.clone())
            .collect(),
        requests: requests.len(),
        scenario,
    }
}

/// The summary request: no tools, the summarizer's instructions, the removed calls in it.
fn assert_summary_request(body: &serde_json::Value) {
    assert!(
        body.get("tools")
            .is_none_or(|tools| tools.as_array().is_some_and(Vec::is_empty)),
        "{body}"
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    let conversation = messages[1]["content"].as_str().unwrap();
    assert!(
        conversation.contains("[Tool Call: lookup]"),
        "{conversation}"
    );
    assert!(
        conversation.contains(r#"Arguments: {"page":0}"#),
        "{conversation}"
    );
    assert!(
        !conversation.contains(r#"{"page":5}"#),
        "the kept call stays out"
    );
}

/// The retry: the record in the question, then the latest call and its result only.
fn retried_question(retry: &serde_json::Value) -> String {
    let messages = retry["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "{retry}");
    assert_eq!(messages[3]["role"], "tool");
    let question = messages[1]["content"].as_str().unwrap().to_string();
    assert!(question.contains("Look it up"), "{question}");
    assert!(question.contains("[CONTEXT RECOVERY"), "{question}");
    assert!(
        question.contains("Tool calls in them: lookup (5)."),
        "{question}"
    );
    question
}

fn warnings(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Warning { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_length_refusal_is_summarized_by_the_model_and_the_retry_finishes_the_turn() {
    let recovery = refused_once(Summarizer::Writes).await;
    let events = &recovery.events;
    // Twelve messages after the question; MassGen keeps int(12 * 0.2) = 2.
    assert_eq!(
        compressions(events),
        [(CompressionReason::ProviderError, 10, true)]
    );
    assert_summary_request(&recovery.after[0]);
    let question = retried_question(&recovery.after[1]);
    assert!(question.contains(SUMMARY), "{question}");
    assert!(
        !question.contains("[Tool Result]"),
        "no transcript: {question}"
    );
    assert!(warnings(events).is_empty(), "{:?}", warnings(events));
    // The summary call is metered like every call answered (all but the refused one).
    let calls = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::Usage { .. }))
        .count();
    assert_eq!(calls, recovery.requests - 1);

    // The event reached the turn's event log like every other event.
    let log = find_events_log(recovery.scenario.dir.path()).unwrap();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("\"type\":\"context_compressed\""), "{text}");
    assert!(text.contains("\"reason\":\"provider_error\""));
    assert!(text.contains("\"summarized\":true"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_summary_the_transcript_takes_the_removed_messages_place() {
    for (summarizer, why) in [
        (Summarizer::Fails, "500"),
        (Summarizer::WritesNothing, "no summary"),
    ] {
        let recovery = refused_once(summarizer).await;
        let events = &recovery.events;
        assert_eq!(
            compressions(events),
            [(CompressionReason::ProviderError, 10, false)]
        );
        assert_summary_request(&recovery.after[0]);
        let question = retried_question(&recovery.after[1]);
        assert!(question.contains("[Tool Result]"), "{question}");
        let warnings = warnings(events);
        assert!(
            warnings
                .iter()
                .any(|warning| warning.contains("summary") && warning.contains(why)),
            "{warnings:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_again_after_compressing_the_agent_is_dropped() {
    let server = serve(Wire::Chat, |seen| model(seen, false, Summarizer::Writes)).await;
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
