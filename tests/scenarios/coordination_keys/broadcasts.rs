//! The broadcast keys: `max_broadcasts_per_agent` refuses questions past the limit,
//! `broadcast_timeout` bounds how long a question waits, `broadcast_wait_by_default: false`
//! returns at once and offers polling.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::coordination_keys::common::{tool_ends, two_agents};
use crate::support::{Scenario, assert_completed, run_once, transcript};
use massgen::protocol::{Event, EventMsg, Mode, TurnOptions};

#[tokio::test(start_paused = true)]
async fn max_broadcasts_per_agent_refuses_a_question_past_the_limit() {
    // a asks in every round; only its first question is taken.
    let asks_twice = r#"      tool_calls: [{name: ask_others, arguments: {question: "Which format?", wait: false}}]
      tool_call_rounds: 2"#;
    let yaml = two_agents(
        asks_twice,
        "  coordination: {broadcast: agents, max_broadcasts_per_agent: 1}",
    );
    let (events, _scenario) = run_once(&yaml, "q").await;
    let outputs: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, output, .. } if tool == "ask_others" => {
                Some(output.clone())
            }
            _ => None,
        })
        .collect();
    assert!(outputs.len() >= 2, "{outputs:?}");
    assert!(outputs[0].contains("pending"), "{}", outputs[0]);
    assert!(
        outputs[1].contains("You have asked 1 questions this turn, the most allowed"),
        "{}",
        outputs[1]
    );
}

/// `asker` asks the other agents twice before answering (`ask_others` as its tool calls,
/// twice per round); `helper` answers from its side calls.
fn two_askers(coordination: &str) -> String {
    format!(
        "agents:\n\
         \x20 - id: asker\n    backend: {{type: scripted, tokens_per_second: 0, answer: mine, vote_for: asker,\n\
         \x20     tool_calls: [{{name: ask_others, arguments: {{question: \"Which format?\"}}}}], tool_call_rounds: 2}}\n\
         \x20 - id: helper\n    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: theirs, vote_for: asker}}\n\
         orchestrator:\n  coordination: {coordination}\n"
    )
}

#[tokio::test(start_paused = true)]
async fn max_broadcasts_per_agent_refuses_questions_past_the_limit() {
    let asked = |events: &[Event]| {
        events
            .iter()
            .filter(|event| {
                matches!(event.msg, EventMsg::BroadcastAsked { .. })
                    && event
                        .agent
                        .as_ref()
                        .is_some_and(|id| id.as_str() == "asker")
            })
            .count()
    };
    let yaml = two_askers("{broadcast: agents, max_broadcasts_per_agent: 1}");
    let (events, _scenario) = run_once(&yaml, "Write a guide").await;
    assert_completed(&events);
    assert_eq!(asked(&events), 1, "{:?}", transcript(&events));
    let asks: Vec<(bool, String)> = tool_ends(&events, "asker")
        .into_iter()
        .filter(|(tool, ..)| tool == "ask_others")
        .map(|(_, ok, output)| (ok, output))
        .collect();
    assert!(asks[0].0, "{asks:?}");
    assert!(
        !asks[1].0 && asks[1].1.contains("max_broadcasts_per_agent"),
        "{asks:?}"
    );

    let yaml = two_askers("{broadcast: agents}");
    let (events, _scenario) = run_once(&yaml, "Write a guide").await;
    assert_completed(&events);
    assert!(asked(&events) >= 2, "{:?}", transcript(&events));
}

/// `asker` asks the user once before answering; nobody answers.
const ASK_USER: &str = "agents:\n\
  - {id: asker, backend: {type: scripted, tokens_per_second: 0, answer: \"as {reply}\", vote_for: asker, ask: \"Which format?\"}}\n\
  - {id: helper, backend: {type: scripted, tokens_per_second: 0, answer: theirs, vote_for: asker}}\n";

/// The JSON result of the asker's first `ask_others` call.
fn first_ask_result(events: &[Event]) -> serde_json::Value {
    let (_, _, output) = tool_ends(events, "asker")
        .into_iter()
        .find(|(tool, ..)| tool == "ask_others")
        .expect("ask_others ran");
    serde_json::from_str(&output).unwrap()
}

/// A turn of [`ASK_USER`] with someone who could answer (but does not): how long it took
/// on the paused clock, its events, and the scenario.
async fn ask_user(coordination: &str) -> (Duration, Vec<Event>, Scenario) {
    let yaml = format!("{ASK_USER}orchestrator:\n  coordination: {coordination}\n");
    let mut scenario = Scenario::start_with_human(tempfile::tempdir().unwrap(), &yaml);
    let start = tokio::time::Instant::now();
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    (start.elapsed(), events, scenario)
}

#[tokio::test(start_paused = true)]
async fn broadcast_timeout_bounds_how_long_a_question_waits() {
    let (elapsed, events, _scenario) = ask_user("{broadcast: human, broadcast_timeout: 5}").await;
    assert_completed(&events);
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    let secs = events.iter().find_map(|event| match event.msg {
        EventMsg::BroadcastAsked { timeout_secs, .. } => Some(timeout_secs),
        _ => None,
    });
    assert_eq!(secs, Some(5));
    assert!(
        elapsed >= Duration::from_secs(5) && elapsed < Duration::from_secs(60),
        "{elapsed:?}"
    );

    let (elapsed, events, _scenario) = ask_user("{broadcast: human}").await;
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    assert!(elapsed >= Duration::from_secs(300), "{elapsed:?}");
}

#[tokio::test(start_paused = true)]
async fn broadcast_wait_by_default_false_returns_at_once_and_offers_polling() {
    let polls = |scenario: &Scenario| {
        scenario.requests_of("asker")[0]
            .tools
            .iter()
            .any(|tool| tool.name == "get_broadcast_responses")
    };
    let (_, events, scenario) =
        ask_user("{broadcast: human, broadcast_timeout: 5, broadcast_wait_by_default: false}")
            .await;
    assert_completed(&events);
    assert_eq!(first_ask_result(&events)["status"], "pending");
    assert!(polls(&scenario));
    let waited = events.iter().find_map(|event| match event.msg {
        EventMsg::BroadcastAsked { wait, .. } => Some(wait),
        _ => None,
    });
    assert_eq!(waited, Some(false));

    let (_, events, scenario) = ask_user("{broadcast: human, broadcast_timeout: 5}").await;
    assert_eq!(first_ask_result(&events)["status"], "timeout");
    assert!(!polls(&scenario));
}
