//! Whole turns that end early or badly: timeouts, cancelling and a failed final
//! presentation.
//!
//! Most tests run on tokio's paused clock, so scripted delays order the agents exactly
//! and the tests take no real time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{
    Scenario, attempt_dir, cancel::run_and_cancel_at, final_answer, load, outcome, run_once,
    spawn_unlogged, transcript, winner, with_presentation,
};
use massgen::backend::{BackendError, StreamEvent};
use massgen::protocol::{EventMsg, TurnOutcome};

#[tokio::test(start_paused = true)]
async fn a_timeout_presents_the_best_existing_answer() {
    let yaml = r#"
agents:
  - id: quick
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Quick answer"}
  - id: stuck
    backend: {type: scripted, tokens_per_second: 0, fail: hang}
timeout_settings:
  orchestrator_timeout_seconds: 2
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "quick round 1 sees []",
            "stuck round 1 sees []",
            "quick answers agent1.1",
            "quick round 2 sees [agent1.1]",
            "quick votes quick (agent1.1)",
            "timeout Orchestrator",
            "winner quick by Votes",
            "quick presents agent1.final (stored)",
            "turn TimedOut",
        ]
    );
    let finished = events.last().unwrap();
    let EventMsg::TurnFinished { duration_ms, .. } = finished.msg else {
        panic!()
    };
    assert!((2000..2100).contains(&duration_ms), "{duration_ms}");
    let dir = attempt_dir(scenario.dir.path(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("final/quick/answer.txt")).unwrap(),
        "Quick answer"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timeout_with_no_answers_ends_without_a_winner() {
    let yaml = r#"
agents:
  - id: stuck
    backend: {type: scripted, fail: hang}
timeout_settings:
  orchestrator_timeout_seconds: 0.5
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    assert_eq!(outcome(&events), TurnOutcome::TimedOut);
    assert_eq!(winner(&events), None);
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::Warning { message } if message.contains("no answers available"))));
}

#[tokio::test(start_paused = true)]
async fn cancelling_stops_the_turn_and_keeps_the_runtime_alive() {
    let yaml = r#"
agents:
  - id: slow
    backend: {type: scripted, fail: hang}
"#;
    let mut scenario = Scenario::start(yaml);
    let events = run_and_cancel_at(&mut scenario.handle, "q", |msg| {
        matches!(msg, EventMsg::RoundStarted { .. })
    })
    .await;
    assert_eq!(outcome(&events), TurnOutcome::Cancelled);
    assert!(events.iter().any(|e| matches!(e.msg, EventMsg::Cancelled)));
    // The runtime still takes questions.
    let stopped = scenario.handle.shutdown().await;
    assert!(matches!(stopped.last().unwrap().msg, EventMsg::RunFinished));
}

#[tokio::test(start_paused = true)]
async fn a_failed_presentation_falls_back_to_the_stored_answer() {
    let config = load(
        "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: \"Stored\"}\n",
    );
    let overloaded = [Err(BackendError::Failed {
        message: "overloaded".into(),
    })];
    let backends = with_presentation(&config, &overloaded);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(final_answer(&events), Some(("Stored".to_string(), true)));
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert!(events.iter().any(
        |e| matches!(&e.msg, EventMsg::Warning { message } if message.contains("overloaded"))
    ));
}

#[tokio::test(start_paused = true)]
async fn a_presentation_that_breaks_midway_presents_the_stored_answer() {
    let config = load(
        "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: \"FORTY-TWO\"}\n",
    );
    let breaks = [
        Ok(StreamEvent::TextDelta("The final answer is ".into())),
        Err(BackendError::Failed {
            message: "connection reset".into(),
        }),
    ];
    let backends = with_presentation(&config, &breaks);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(final_answer(&events), Some(("FORTY-TWO".to_string(), true)));
    // What a script reading `--display quiet` gets: the whole stored answer, nothing partial.
    let mut quiet = massgen::headless::QuietPrinter::new(Vec::new(), Vec::new());
    let mut plain =
        massgen::headless::PlainPrinter::new(Vec::new(), massgen::headless::Style::new(false));
    for event in &events {
        massgen::headless::Printer::print(&mut quiet, event).unwrap();
        massgen::headless::Printer::print(&mut plain, event).unwrap();
    }
    assert_eq!(
        String::from_utf8(quiet.into_inner().0).unwrap(),
        "FORTY-TWO\n"
    );
    let plain = String::from_utf8(plain.into_inner()).unwrap();
    assert!(
        plain.contains("The final answer is \n! the final presentation failed (connection reset)"),
        "{plain}"
    );
    assert!(
        plain.contains("(the winner's stored answer)\nFORTY-TWO\n──"),
        "{plain}"
    );
}
