//! "Answer now" (`Op::AnswerNow`, the TUI's Ctrl+G; MassGen's Answer Now): mid-round it
//! ends refinement, stops the running rounds and the vote leader presents; before any
//! answer it only says so, and the turn goes on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, attempt_dir, outcome};
use massgen::protocol::{AgentStatus, EventMsg, Op, TurnOutcome, WinnerBasis};

/// `a` and `b` answer at once and both vote for `b`; `c` is still thinking for ten minutes.
const TWO_ANSWERED_ONE_WORKING: &str = r#"
agents:
  - id: a
    backend: {type: scripted, answer: "Answer from a to {question}", vote_for: b}
  - id: b
    backend: {type: scripted, answer: "Answer from b to {question}", vote_for: b,
              final_answer: "Final from b"}
  - id: c
    backend: {type: scripted, first_token_ms: 600000, answer: "Answer from c to {question}", vote_for: c}
"#;

/// `b` holds both votes that stand, so far.
fn b_leads_with_two(msg: &EventMsg) -> bool {
    matches!(msg, EventMsg::VoteCast { standing: Some(standing), .. }
        if standing.iter().any(|count| count.agent.as_str() == "b" && count.votes == 2))
}

#[tokio::test(start_paused = true)]
async fn answer_now_mid_round_has_the_leader_present_and_the_turn_completes() {
    let mut scenario = Scenario::start(TWO_ANSWERED_ONE_WORKING);
    let events = scenario
        .submit_answering("q", Default::default(), Default::default(), |msg| {
            b_leads_with_two(msg).then_some(Op::AnswerNow)
        })
        .await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let asked = events
        .iter()
        .position(|e| matches!(e.msg, EventMsg::AnswerNow { .. }))
        .expect("an AnswerNow event");
    let EventMsg::AnswerNow { stopped } = &events[asked].msg else {
        unreachable!()
    };
    // `c` was still working; its round was stopped and it never answered.
    assert!(
        stopped.iter().any(|agent| agent.as_str() == "c"),
        "{stopped:?}"
    );
    assert!(!events.iter().any(|e| matches!(&e.msg,
        EventMsg::AnswerSubmitted { .. } if e.agent.as_ref().is_some_and(|a| a.as_str() == "c"))));
    assert!(events[asked..].iter().any(|e| matches!(&e.msg,
        EventMsg::AgentStatus { status: AgentStatus::Cancelled }
            if e.agent.as_ref().is_some_and(|a| a.as_str() == "c"))));
    // The leader by votes, not the first agent in config order, presents.
    let (winner, basis) = events[asked..]
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::WinnerSelected { winner, basis, .. } => Some((winner.clone(), *basis)),
            _ => None,
        })
        .expect("a winner after answer now");
    assert_eq!(winner.as_str(), "b");
    assert_eq!(basis, WinnerBasis::Votes);
    let presenting = events[asked..]
        .iter()
        .find(|e| matches!(e.msg, EventMsg::FinalPresentationStarted { .. }))
        .expect("the presentation starts");
    assert_eq!(presenting.agent.as_ref().unwrap().as_str(), "b");
    let done = events
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::FinalPresentationDone {
                content, fallback, ..
            } => Some((content.clone(), *fallback)),
            _ => None,
        })
        .expect("the final answer");
    assert_eq!(done, ("Final from b".to_string(), false));
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::TurnFinished { winner: Some(winner), .. } if winner.as_str() == "b"));
    // The event log and the coordination events record it (derived once the turn is
    // written: the next op runs after that).
    scenario.handle.ops.send(Op::ListPlans).await.unwrap();
    while let Some(event) = scenario.handle.events.recv().await {
        if matches!(event.msg, EventMsg::PlansListed { .. }) {
            break;
        }
    }
    let attempt = attempt_dir(scenario.dir.path(), 1);
    let log = std::fs::read_to_string(attempt.join("events.jsonl")).unwrap();
    assert!(log.contains("\"type\":\"answer_now\""));
    let coordination = std::fs::read_to_string(attempt.join("coordination_events.json")).unwrap();
    assert!(
        coordination.contains("answer_now_requested"),
        "{coordination}"
    );
    // `c`'s stopped round counts as cancelled in the metrics.
    let metrics = std::fs::read_to_string(attempt.join("metrics_summary.json")).unwrap();
    let metrics: serde_json::Value = serde_json::from_str(&metrics).unwrap();
    assert_eq!(metrics["rounds"]["by_outcome"]["cancelled"], 1, "{metrics}");
}

#[tokio::test(start_paused = true)]
async fn answer_now_before_any_answer_says_so_and_the_turn_goes_on() {
    let mut scenario = Scenario::start(
        r#"
agents:
  - id: a
    backend: {type: scripted, first_token_ms: 2000, answer: "Answer from a", vote_for: a}
  - id: b
    backend: {type: scripted, first_token_ms: 2000, answer: "Answer from b", vote_for: a}
"#,
    );
    let events = scenario
        .submit_answering("q", Default::default(), Default::default(), |msg| {
            matches!(msg, EventMsg::TurnStarted { .. }).then_some(Op::AnswerNow)
        })
        .await;
    let warned = events.iter().any(|e| {
        matches!(&e.msg,
        EventMsg::Warning { message } if message.contains("no agent has answered yet"))
    });
    assert!(warned, "a notice that there is nothing to present yet");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.msg, EventMsg::AnswerNow { .. }))
    );
    // Coordination went on as usual: both answered and voted, and `a` won.
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let answered = events
        .iter()
        .filter(|e| matches!(e.msg, EventMsg::AnswerSubmitted { .. }))
        .count();
    assert_eq!(answered, 2);
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::TurnFinished { winner: Some(winner), .. } if winner.as_str() == "a"));
}

#[tokio::test(start_paused = true)]
async fn after_answer_now_the_winner_presents_without_sending_the_turn_back() {
    // With restarts allowed the winner would check its answer and send the turn back.
    let yaml = TWO_ANSWERED_ONE_WORKING.replace(
        "agents:",
        "orchestrator:\n  coordination: {max_orchestration_restarts: 2}\nagents:",
    );
    let yaml = yaml.replace(
        r#"final_answer: "Final from b""#,
        r#"final_answer: "Final from b", post_evaluation: [{restart: "redo it", instructions: "again"}]"#,
    );
    let mut scenario = Scenario::start(&yaml);
    let events = scenario
        .submit_answering("q", Default::default(), Default::default(), |msg| {
            b_leads_with_two(msg).then_some(Op::AnswerNow)
        })
        .await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e.msg, EventMsg::AnswerNow { .. }))
    );
    assert!(!events.iter().any(|e| matches!(
        e.msg,
        EventMsg::PostEvaluationStarted { .. } | EventMsg::OrchestrationRestarted { .. }
    )));
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert!(matches!(&events.last().unwrap().msg,
        EventMsg::TurnFinished { winner: Some(winner), .. } if winner.as_str() == "b"));
}
