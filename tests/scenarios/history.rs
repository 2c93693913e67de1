//! Whole turns given more than the question: human input mid-turn and the history of
//! earlier turns.
//!
//! Most tests run on tokio's paused clock, so scripted delays order the agents exactly
//! and the tests take no real time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, attempt_dir, outcome};
use massgen::protocol::{EventMsg, Op, TurnOutcome};

#[tokio::test(start_paused = true)]
async fn human_input_reaches_each_agent_with_its_next_tool_result() {
    let yaml = r#"
agent:
  id: a
  backend:
    type: scripted
    tokens_per_second: 0
    first_token_ms: 100
    tool_calls: [{name: lookup, arguments: {}}]
    answer: "Paris"
"#;
    let mut scenario = Scenario::start(yaml);
    scenario
        .handle
        .ops
        .send(Op::Submit {
            options: Default::default(),
            text: "q".into(),
            mode: Default::default(),
            context_paths: vec![],
        })
        .await
        .unwrap();
    scenario
        .handle
        .ops
        .send(Op::InjectHumanInput {
            text: "focus on history".into(),
            targets: Vec::new(),
        })
        .await
        .unwrap();
    let events = scenario.handle.finish_turn().await;
    assert!(events.iter().any(
        |e| matches!(&e.msg, EventMsg::HumanInputQueued { text, .. } if text == "focus on history")
    ));
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.msg, EventMsg::HumanInputDelivered { .. }))
    );
    let second = &scenario.requests_of("a")[1];
    assert!(
        second
            .messages
            .last()
            .unwrap()
            .content()
            .ends_with("\n[Human Input]: focus on history\n")
    );
}

/// One agent whose answers repeat the question, to see what history it is given.
const ECHOING_AGENT: &str = r#"
agent:
  id: a
  backend: {type: scripted, tokens_per_second: 0, answer: "Answer to {question}", final_answer: "Final: {question}"}
"#;

#[tokio::test(start_paused = true)]
async fn a_second_turn_sees_the_first_in_its_history() {
    let mut scenario = Scenario::start(ECHOING_AGENT);
    let first = scenario.handle.run_turn("first question").await;
    assert_eq!(outcome(&first), TurnOutcome::Completed);
    let second = scenario.handle.run_turn("second question").await;
    assert_eq!(outcome(&second), TurnOutcome::Completed);
    assert!(second.iter().all(|event| event.turn == 2));
    let requests = scenario.requests_of("a");
    let turn_two = requests
        .iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(turn_two.messages[1].content().starts_with(
        "<CONVERSATION_HISTORY>\nUser: first question\nAssistant: Final: first question\n<END OF CONVERSATION_HISTORY>"
    ));
    assert!(
        attempt_dir(scenario.dir.path(), 2)
            .join("events.jsonl")
            .is_file()
    );
    let stopped = scenario.handle.shutdown().await;
    assert!(matches!(stopped.last().unwrap().msg, EventMsg::RunFinished));
}

#[tokio::test(start_paused = true)]
async fn a_continued_session_gives_its_turns_as_history_and_numbers_on() {
    use massgen::session::{PastTurn, SessionInfo};

    let dir = tempfile::tempdir().unwrap();
    let session = SessionInfo {
        id: "session_20261122_120000".into(),
        dir: dir.path().to_path_buf(),
        turns: vec![PastTurn {
            turn: 1,
            question: "first question".into(),
            winner: Some("a".into()),
            status: "complete".into(),
            answer: "Final: first question".into(),
            log_dir: None,
        }],
        history_from: 1,
        notice: None,
        unreadable: Vec::new(),
    };
    let mut scenario = Scenario::start_resumed(ECHOING_AGENT, session);
    let events = scenario.handle.run_turn("second question").await;
    let turns: Vec<u32> = events
        .iter()
        .map(|event| event.turn)
        .filter(|turn| *turn != 0)
        .collect();
    assert!(
        !turns.is_empty() && turns.iter().all(|turn| *turn == 2),
        "turns number on"
    );
    let request = scenario
        .requests_of("a")
        .into_iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(request.messages[1].content().starts_with(
        "<CONVERSATION_HISTORY>\nUser: first question\nAssistant: Final: first question\n"
    ));
    scenario.handle.shutdown().await;
    assert!(
        dir.path().join("turn_2/metadata.json").is_file(),
        "recorded in the same session"
    );
}

#[tokio::test(start_paused = true)]
async fn clearing_the_history_starts_the_next_turn_afresh() {
    let mut scenario = Scenario::start(ECHOING_AGENT);
    scenario.handle.run_turn("first question").await;
    scenario.handle.ops.send(Op::ClearHistory).await.unwrap();
    let cleared = scenario.handle.events.recv().await.unwrap();
    assert_eq!(cleared.msg, EventMsg::HistoryCleared);
    let second = scenario.handle.run_turn("second question").await;
    assert_eq!(outcome(&second), TurnOutcome::Completed);
    let requests = scenario.requests_of("a");
    let turn_two = requests
        .iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(
        !turn_two.messages[1].content().contains("first question"),
        "{}",
        turn_two.messages[1].content()
    );
    scenario.handle.shutdown().await;
}
