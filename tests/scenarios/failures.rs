//! Whole turns with scripted agents that fail, retry or misbehave: they are dropped
//! and the others finish.
//!
//! Most tests run on tokio's paused clock, so scripted delays order the agents exactly
//! and the tests take no real time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crate::support::{
    error_and_kill, load, outcome, run_once, spawn_unlogged, transcript, transcript_of, winner,
};
use massgen::backend::{Backend, ChatRequest, EventStream, Message, build_backends};
use massgen::protocol::{EventMsg, TurnOutcome};

#[tokio::test(start_paused = true)]
async fn an_agent_that_always_fails_is_dropped_and_the_others_finish() {
    let yaml = r#"
agents:
  - id: good
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: "Good answer"}
  - id: broken
    backend:
      type: scripted
      tokens_per_second: 0
      text: "Starting to work"
      fail: {mode: error, after_tokens: 2, message: "upstream returned 500"}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "good round 1 sees []",
            "broken round 1 sees []",
            "broken error",
            "broken killed",
            "good answers agent1.1",
            "good round 2 sees [agent1.1]",
            "good votes good (agent1.1)",
            "winner good by Votes",
            "good presents agent1.final",
            "turn Completed",
        ]
    );
    let error = error_and_kill(&events).0.unwrap();
    assert_eq!(error, "upstream returned 500");
    // The partial text streamed before the failure reached the front end.
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::TextDelta { text } if text.starts_with("Starting"))));
    assert_eq!(scenario.requests_of("broken").len(), 1);
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_never_calls_a_workflow_tool_gets_three_attempts() {
    let yaml = r#"
agents:
  - id: good
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "Good answer"}
  - id: talker
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, text: "Let me ramble.", fail: no_workflow}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let talker = transcript_of(&events, "talker");
    assert_eq!(
        talker,
        [
            "talker round 1 sees []",
            "talker round 2 sees [agent1.1]",
            "talker retry 2 NoWorkflowTool",
            "talker retry 3 NoWorkflowTool",
            "talker killed",
        ]
    );
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("good"));
    // One call in round 1 (which restarts for good's answer), then three attempts.
    let requests = scenario.requests_of("talker");
    assert_eq!(requests.len(), 4);
    let nudge = requests[3].messages.last().unwrap().content();
    assert!(
        nudge.contains("<incomplete_response>\nLet me ramble.\n</incomplete_response>"),
        "{nudge}"
    );
    assert!(nudge.contains("Make sure you actually call the tool."));
    let killed = error_and_kill(&events).1.unwrap();
    assert!(killed.contains("after 3 attempts"), "{killed}");
}

#[tokio::test(start_paused = true)]
async fn when_every_agent_fails_the_turn_fails() {
    let yaml = r#"
agents:
  - id: x
    backend: {type: scripted, fail: error}
  - id: y
    backend: {type: scripted, fail: truncate, text: "cut off here"}
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
    assert_eq!(winner(&events), None);
    let errors: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AgentError { message } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert!(
        errors.iter().any(|message| message.contains("cut off")),
        "{errors:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_keeps_voting_for_nobody_is_dropped() {
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "Answer a"}
  - id: bad
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 500, answer: "Answer bad", fail: invalid_vote}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let bad = transcript_of(&events, "bad");
    assert_eq!(
        bad,
        [
            "bad round 1 sees []",
            "bad answers agent2.1",
            "bad round 2 sees [agent1.1,agent2.1]",
            "bad retry 2 InvalidVote",
            "bad retry 3 InvalidVote",
            "bad killed",
        ]
    );
    let requests = scenario.requests_of("bad");
    let Message::Tool { content, .. } = requests[2].messages.last().unwrap() else {
        panic!()
    };
    assert_eq!(
        content,
        "Invalid agent_id 'agent99'. Valid agents: agent1, agent2"
    );
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

#[tokio::test(start_paused = true)]
async fn other_tool_calls_get_error_results_and_the_round_goes_on() {
    let yaml = r#"
agent:
  id: a
  backend:
    type: scripted
    tokens_per_second: 0
    tool_calls: [{name: web_search, arguments: {query: "capital of france"}}]
    answer: "Paris"
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let (begin, end) = (
        events.iter().position(
            |e| matches!(&e.msg, EventMsg::ToolCallBegin { tool, .. } if tool == "web_search"),
        ),
        events
            .iter()
            .position(|e| matches!(&e.msg, EventMsg::ToolCallEnd { ok: false, .. })),
    );
    assert!(begin.unwrap() < end.unwrap());
    let second = &scenario.requests_of("a")[1];
    let Message::Tool {
        name,
        is_error,
        content,
        ..
    } = second.messages.last().unwrap()
    else {
        panic!()
    };
    assert_eq!(name, "web_search");
    assert!(*is_error && content.contains("not available"));
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

/// A backend that panics on every call: a bug must cost one agent, not the turn.
struct Panics;

impl Backend for Panics {
    fn kind(&self) -> massgen::config::BackendKind {
        massgen::config::BackendKind::Scripted
    }
    fn provider(&self) -> &str {
        "test"
    }
    fn model(&self) -> &str {
        "panics"
    }
    fn stream(&self, _request: ChatRequest) -> EventStream {
        panic!("backend bug")
    }
}

#[tokio::test(start_paused = true)]
async fn a_panicking_backend_drops_its_agent_without_stalling_the_turn() {
    let config = load(
        "agents:\n  - id: good\n    backend: {type: scripted, tokens_per_second: 0, answer: \"fine\"}\n  - id: buggy\n    backend: {type: scripted}\n",
    );
    let mut backends = build_backends(&config, &massgen::config::Env::default()).unwrap();
    backends[1] = Arc::new(Panics);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("good"));
    let (error, killed) = error_and_kill(&events);
    assert!(error.unwrap().contains("backend bug"));
    assert!(killed.is_some());
    let EventMsg::TurnFinished { duration_ms, .. } = events.last().unwrap().msg else {
        panic!()
    };
    assert!(
        duration_ms < 1000,
        "the turn did not wait for a timeout: {duration_ms} ms"
    );
}
