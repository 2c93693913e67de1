//! The user's override of the final answer (`Op::OverrideFinal`, the TUI's Ctrl+O): during
//! the winner's presentation it stops it and presents the chosen answer; after the turn it
//! replaces the turn's answer in the history the next turn sees.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, attempt_dir, outcome};
use massgen::protocol::{AnswerLabel, Event, EventMsg, Op, TurnOutcome};

/// `a` wins every vote and presents slowly; `b`'s answer is `agent2.1`.
const TWO_AGENTS: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 4, answer: "Answer from a to {question}", vote_for: a,
              final_answer: "A long final presentation by a that streams one word at a time for many seconds to come"}
  - id: b
    backend: {type: scripted, tokens_per_second: 4, first_token_ms: 50, answer: "Answer from b to {question}", vote_for: a}
"#;

fn submit(text: &str) -> Op {
    Op::Submit {
        options: Default::default(),
        text: text.into(),
        mode: Default::default(),
        context_paths: vec![],
    }
}

/// Events until (and including) the first that `stop` accepts.
async fn events_until(scenario: &mut Scenario, stop: impl Fn(&EventMsg) -> bool) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(event) = scenario.handle.events.recv().await {
        let done = stop(&event.msg);
        events.push(event);
        if done {
            return events;
        }
    }
    panic!("the runtime stopped before the awaited event");
}

fn label(text: &str) -> AnswerLabel {
    serde_json::from_value(serde_json::json!(text)).unwrap()
}

#[tokio::test(start_paused = true)]
async fn an_override_during_the_presentation_presents_the_chosen_answer() {
    let mut scenario = Scenario::start(TWO_AGENTS);
    scenario.handle.ops.send(submit("q")).await.unwrap();
    let before = events_until(&mut scenario, |msg| {
        matches!(msg, EventMsg::FinalPresentationStarted { .. })
    })
    .await;
    assert!(before.iter().any(
        |e| matches!(&e.msg, EventMsg::WinnerSelected { winner, .. } if winner.as_str() == "a")
    ));
    scenario
        .handle
        .ops
        .send(Op::OverrideFinal {
            label: label("agent2.1"),
        })
        .await
        .unwrap();
    let events = scenario.handle.finish_turn().await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let overridden = events
        .iter()
        .find(|e| matches!(e.msg, EventMsg::FinalOverridden { .. }))
        .expect("a FinalOverridden event");
    assert!(matches!(&overridden.msg,
        EventMsg::FinalOverridden { label, agent, content }
            if label.as_str() == "agent2.1" && agent.as_str() == "b" && content == "Answer from b to q"));
    let done = events
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::FinalPresentationDone {
                content, fallback, ..
            } => Some((e.agent.clone(), content.clone(), *fallback)),
            _ => None,
        })
        .expect("the final answer");
    assert_eq!(done.0.unwrap().as_str(), "b");
    assert_eq!(done.1, "Answer from b to q");
    assert!(!done.2);
    // The presentation was stopped: not all of it streamed.
    let streamed: String = events
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::FinalPresentationDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!streamed.contains("many seconds to come"), "{streamed}");
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::TurnFinished { winner: Some(winner), .. } if winner.as_str() == "b"));
    // The event log records the override.
    let log =
        std::fs::read_to_string(attempt_dir(scenario.dir.path(), 1).join("events.jsonl")).unwrap();
    assert!(log.contains("\"type\":\"final_overridden\""));
}

#[tokio::test(start_paused = true)]
async fn an_override_after_the_turn_is_the_answer_the_next_turn_sees() {
    let mut scenario = Scenario::start(TWO_AGENTS);
    let first = scenario.handle.run_turn("first").await;
    assert_eq!(outcome(&first), TurnOutcome::Completed);
    scenario
        .handle
        .ops
        .send(Op::OverrideFinal {
            label: label("agent2.1"),
        })
        .await
        .unwrap();
    let events = events_until(&mut scenario, |msg| {
        matches!(msg, EventMsg::FinalOverridden { .. })
    })
    .await;
    let overridden = events.last().unwrap();
    assert_eq!(overridden.turn, 1);
    assert_eq!(overridden.agent.as_ref().unwrap().as_str(), "b");
    let second = scenario.handle.run_turn("second").await;
    assert_eq!(outcome(&second), TurnOutcome::Completed);
    let attempt = attempt_dir(scenario.dir.path(), 1);
    let log = std::fs::read_to_string(attempt.join("events.jsonl")).unwrap();
    assert!(log.lines().last().unwrap().contains("final_overridden"));
    // Ops run in order, so the override's files are written by now. The files derived
    // from the log say so too: the log's coordination events and the
    // session's record of the turn.
    let coordination = std::fs::read_to_string(attempt.join("coordination_events.json")).unwrap();
    assert!(
        coordination.contains("final_answer_override"),
        "{coordination}"
    );
    let sessions = scenario.dir.path().join(".massgen/sessions");
    let session = std::fs::read_dir(&sessions)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let turn = session.join("turn_1");
    assert_eq!(
        std::fs::read_to_string(turn.join("answer.txt")).unwrap(),
        "Answer from b to first"
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&std::fs::read(turn.join("metadata.json")).unwrap()).unwrap();
    assert_eq!(metadata["winning_agent"], "b", "{metadata}");

    let requests = scenario.requests_of("b");
    let turn_two = requests
        .iter()
        .find(|r| r.messages[1].content().contains("second"))
        .unwrap();
    assert!(
        turn_two.messages[1].content().starts_with(
            "<CONVERSATION_HISTORY>\nUser: first\nAssistant: Answer from b to first\n<END OF CONVERSATION_HISTORY>"
        ),
        "{}",
        turn_two.messages[1].content()
    );
}

#[tokio::test(start_paused = true)]
async fn an_override_before_voting_is_done_is_refused() {
    let mut scenario = Scenario::start(TWO_AGENTS);
    scenario
        .handle
        .ops
        .send(Op::OverrideFinal {
            label: label("agent2.1"),
        })
        .await
        .unwrap();
    let events = events_until(&mut scenario, |msg| matches!(msg, EventMsg::Warning { .. })).await;
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::Warning { message } if message == "override is available once voting is done"));
    scenario.handle.ops.send(submit("q")).await.unwrap();
    scenario
        .handle
        .ops
        .send(Op::OverrideFinal {
            label: label("agent2.1"),
        })
        .await
        .unwrap();
    let events = scenario.handle.finish_turn().await;
    assert!(events.iter().any(|e| matches!(&e.msg,
        EventMsg::Warning { message } if message == "override is available once voting is done")));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.msg, EventMsg::FinalOverridden { .. }))
    );
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::TurnFinished { winner: Some(winner), .. } if winner.as_str() == "a"));
}
