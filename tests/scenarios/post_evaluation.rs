//! Post-evaluation and orchestration restarts (`coordination.max_orchestration_restarts`):
//! the winner checks its presented answer, then submits it or sends the turn back; the
//! next attempt starts from nothing, reads the feedback first, and logs to `attempt_N/`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{final_answer, outcome, run_once, transcript};
use massgen::backend::Message;
use massgen::protocol::{EventMsg, TurnOutcome};
use massgen::session::read_events;

fn config(restarts: u32, decisions: &str) -> String {
    format!(
        r#"
orchestrator:
  coordination: {{max_orchestration_restarts: {restarts}}}
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Answer from a"
      final_answer: "Final from a"
      vote_for: a
      post_evaluation: {decisions}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 200, answer: "Answer from b", vote_for: a}}
"#
    )
}

fn lines_with(events: &[massgen::protocol::Event], words: &[&str]) -> Vec<String> {
    transcript(events)
        .into_iter()
        .filter(|line| line != "turn started" && words.iter().any(|word| line.contains(word)))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn the_winner_checks_its_answer_and_submits_it() {
    let (events, _scenario) = run_once(&config(1, "[submit]"), "q").await;
    assert_eq!(
        lines_with(
            &events,
            &["checks", "submits", "restart", "presents", "turn Completed"]
        ),
        [
            "a checks the answer (1/2)",
            "a submits",
            "a presents agent1.final",
            "turn Completed"
        ]
    );
    assert_eq!(final_answer(&events), Some(("Final from a".into(), false)));
}

#[tokio::test(start_paused = true)]
async fn without_restarts_configured_nobody_checks() {
    let yaml = config(0, "[submit]");
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert!(lines_with(&events, &["checks", "restart"]).is_empty());
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

#[tokio::test(start_paused = true)]
async fn a_restart_starts_a_new_attempt_with_the_feedback_and_then_submits() {
    let decisions =
        r#"[{restart: "It cites no source", instructions: "Cite an official source"}, submit]"#;
    let (events, scenario) = run_once(&config(2, decisions), "q").await;
    assert_eq!(
        lines_with(
            &events,
            &[
                "checks",
                "submits",
                "asks to restart",
                "restart attempt",
                "presents",
                "turn "
            ]
        ),
        [
            "a checks the answer (1/3)",
            "a asks to restart",
            "restart attempt 2/3",
            "a checks the answer (2/3)",
            "a submits",
            "a presents agent1.final",
            "turn Completed"
        ]
    );
    let presented = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::FinalPresentationDone { .. }))
        .count();
    assert_eq!(presented, 1, "only the submitted answer reaches the user");

    // The second attempt's rounds start from nothing and read the feedback first.
    let restart_at = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::OrchestrationRestarted { .. }))
        .unwrap();
    let after: Vec<String> = transcript(&events[restart_at..]);
    assert!(
        after.contains(&"a round 1 sees []".to_string()),
        "{after:#?}"
    );
    let b_requests = scenario.requests_of("b");
    let last_round = b_requests
        .iter()
        .rev()
        .find_map(|request| {
            request.messages.iter().find_map(|message| match message {
                Message::User { content, .. } => Some(content.clone()),
                _ => None,
            })
        })
        .unwrap();
    assert!(
        last_round.starts_with("<PREVIOUS ATTEMPT FEEDBACK>")
            && last_round.contains("It cites no source")
            && last_round.contains("**Instructions for this attempt:**\nCite an official source")
            && last_round.contains("Final from a"),
        "{last_round}"
    );

    // Each attempt logs to its own directory; the first keeps its own derived files.
    let turn_dir = crate::support::attempt_dir(scenario.dir.path(), 1)
        .parent()
        .unwrap()
        .to_path_buf();
    let first = read_events(&turn_dir.join("attempt_1/events.jsonl")).unwrap();
    let second = read_events(&turn_dir.join("attempt_2/events.jsonl")).unwrap();
    assert!(
        first
            .iter()
            .any(|event| matches!(event.msg, EventMsg::TurnStarted { .. }))
    );
    assert!(
        second
            .iter()
            .any(|event| matches!(event.msg, EventMsg::OrchestrationRestarted { .. }))
    );
    assert!(
        second
            .iter()
            .any(|event| matches!(event.msg, EventMsg::TurnFinished { .. }))
    );
    assert!(
        turn_dir
            .join("attempt_1/coordination_events.json")
            .is_file()
    );
    assert_eq!(
        std::fs::read_to_string(turn_dir.join("attempt_2/final/a/answer.txt")).unwrap(),
        "Final from a"
    );
}

#[tokio::test(start_paused = true)]
async fn the_restart_limit_ends_the_checks_and_the_last_answer_stands() {
    let decisions = r#"[{restart: "one", instructions: "x"}, {restart: "two", instructions: "y"}]"#;
    let (events, _scenario) = run_once(&config(1, decisions), "q").await;
    assert_eq!(
        lines_with(
            &events,
            &[
                "checks",
                "asks to restart",
                "restart attempt",
                "presents",
                "turn "
            ]
        ),
        [
            "a checks the answer (1/2)",
            "a asks to restart",
            "restart attempt 2/2",
            "a presents agent1.final",
            "turn Completed"
        ],
        "the last attempt is not checked: nothing could follow it"
    );
}

#[tokio::test(start_paused = true)]
async fn no_decision_leaves_the_answer_as_it_is() {
    let (events, _scenario) = run_once(&config(1, "[none]"), "q").await;
    assert_eq!(
        lines_with(&events, &["checks", "check failed", "restart", "presents"]),
        [
            "a checks the answer (1/2)",
            "a check failed",
            "a presents agent1.final"
        ]
    );
    assert_eq!(final_answer(&events), Some(("Final from a".into(), false)));
}

#[tokio::test(start_paused = true)]
async fn debug_final_answer_is_what_the_first_check_reads() {
    let yaml = config(1, "[submit]").replace(
        "orchestrator:\n",
        "orchestrator:\n  debug_final_answer: \"A deliberately wrong answer\"\n",
    );
    let (_events, scenario) = run_once(&yaml, "q").await;
    let check = scenario
        .requests_of("a")
        .into_iter()
        .find(|request| request.tools.iter().any(|tool| tool.name == "submit"))
        .unwrap();
    let user = check
        .messages
        .iter()
        .find_map(|message| match message {
            Message::User { content, .. } => Some(content.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        user.contains("FINAL ANSWER TO EVALUATE:\nA deliberately wrong answer"),
        "{user}"
    );
}

#[tokio::test(start_paused = true)]
async fn skip_coordination_rounds_has_the_first_agent_present_at_once() {
    let yaml = config(0, "[submit]").replace(
        "orchestrator:\n",
        "orchestrator:\n  skip_coordination_rounds: true\n",
    );
    let (events, _scenario) = run_once(&yaml, "q").await;
    let lines: Vec<String> = transcript(&events)
        .into_iter()
        .filter(|line| line != "turn started")
        .collect();
    assert_eq!(
        lines,
        [
            "winner a by FirstAnswer",
            "a presents agent1.final",
            "turn Completed"
        ]
    );
    assert_eq!(final_answer(&events), Some(("Final from a".into(), false)));
}

#[tokio::test(start_paused = true)]
async fn a_cancel_during_the_check_ends_the_turn_cancelled_without_a_final_answer() {
    let mut scenario = crate::support::Scenario::start(&config(1, "[submit]"));
    let events = crate::support::cancel::run_and_cancel_at(&mut scenario.handle, "q", |msg| {
        matches!(msg, EventMsg::PostEvaluationStarted { .. })
    })
    .await;
    assert_eq!(outcome(&events), TurnOutcome::Cancelled);
    assert_eq!(final_answer(&events), None);
    assert!(
        !lines_with(&events, &["submits", "restart attempt"])
            .iter()
            .any(|_| true),
        "nothing follows the cancel"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timeout_is_never_followed_by_a_check() {
    // b never finishes; the orchestrator timeout presents a's stored answer unchecked.
    let yaml = config(2, "[{restart: \"x\", instructions: \"y\"}]")
        .replace(
            "first_token_ms: 200,",
            "first_token_ms: 200, fail: {mode: hang},",
        )
        .replace(
            "orchestrator:\n",
            "timeout_settings: {orchestrator_timeout_seconds: 60}\norchestrator:\n",
        );
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert!(lines_with(&events, &["checks", "restart attempt"]).is_empty());
    assert_eq!(outcome(&events), TurnOutcome::TimedOut);
    assert!(final_answer(&events).is_some());
}
