//! Checklist-gated voting (`voting_sensitivity: checklist_gated`): no vote before a
//! checklist, a failing checklist sends the agent back to `new_answer`, a passing one lets
//! it vote; scores are reported with their verdict.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{run_once, transcript};
use massgen::protocol::{ChecklistVerdict, EnforcementReason, EventMsg};

fn retries(events: &[massgen::protocol::Event]) -> Vec<(EnforcementReason, String)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::EnforcementRetry { reason, detail, .. } => Some((*reason, detail.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_vote_before_a_checklist_is_refused() {
    let yaml = r#"
agent:
  id: solo
  voting_sensitivity: checklist_gated
  backend: {type: scripted, tokens_per_second: 0, answer: "Paris."}
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let refused = retries(&events);
    assert!(!refused.is_empty(), "{:?}", transcript(&events));
    let (reason, detail) = &refused[0];
    assert_eq!(*reason, EnforcementReason::ChecklistGate);
    assert!(
        detail.starts_with("You must call `submit_checklist`"),
        "{detail}"
    );
    assert!(
        !transcript(&events)
            .iter()
            .any(|line| line.contains("votes")),
        "{:?}",
        transcript(&events)
    );
}

#[tokio::test(start_paused = true)]
async fn a_failing_checklist_forces_a_new_answer_and_a_passing_one_allows_the_vote() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: {score: 9, reasoning: "asked"}, E2: 6, E3: 5, E4: 9}
      - {E1: 9, E2: 9, E3: 8, E4: 7}
orchestrator:
  voting_sensitivity: checklist_gated
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "solo round 1 sees []",
            "solo answers agent1.1",
            "solo round 2 sees [agent1.1]",
            "solo checklist new_answer",
            "solo answers agent1.2",
            "solo round 3 sees [agent1.2]",
            "solo checklist vote",
            "solo votes solo (agent1.2)",
            "winner solo by Votes",
            "solo presents agent1.final",
            "turn Completed",
        ]
    );
    let results: Vec<_> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ChecklistSubmitted { result } => Some(result.clone()),
            _ => None,
        })
        .collect();
    // MassGen's gate at threshold 5 with 5 answers: 3 of 4 criteria at 8 or more.
    assert_eq!(results[0].verdict, ChecklistVerdict::NewAnswer);
    assert_eq!((results[0].passed, results[0].required), (2, 3));
    assert!(
        results[0]
            .explanation
            .contains("Items that need improvement: E2, E3."),
        "{}",
        results[0].explanation
    );
    assert_eq!(results[1].verdict, ChecklistVerdict::Vote);
    assert_eq!(
        results[1]
            .scores
            .iter()
            .map(|item| item.score)
            .collect::<Vec<_>>(),
        [9, 9, 8, 7]
    );
    // The tool result the agent read is MassGen's payload.
    let tool_end = events.iter().find_map(|event| match &event.msg {
        EventMsg::ToolCallEnd { tool, output, .. } if tool == "submit_checklist" => {
            Some(output.clone())
        }
        _ => None,
    });
    let payload: serde_json::Value = serde_json::from_str(&tool_end.unwrap()).unwrap();
    assert_eq!(payload["status"], "accepted");
    assert_eq!(payload["verdict"], "new_answer");
    assert_eq!(payload["failed_criteria"], serde_json::json!(["E2", "E3"]));
}

#[tokio::test(start_paused = true)]
async fn gated_and_ungated_agents_per_agent_scores_name_the_strongest_answer() {
    // b is gated on its own; a votes as usual. b scores both answers by anonymous id.
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: b
    voting_sensitivity: checklist_gated
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 150
      answer: "Answer from b"
      vote_for: a
      checklist:
        - agent1: {E1: 9, E2: 9, E3: 9, E4: 8}
          agent2: {E1: 6, E2: 6, E3: 6, E4: 6}
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    let lines = transcript(&events);
    assert!(lines.contains(&"b checklist vote".to_string()), "{lines:?}");
    assert!(
        !lines.iter().any(|line| line.starts_with("a checklist")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"winner a by Votes".to_string()),
        "{lines:?}"
    );
    let best: Vec<_> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ChecklistSubmitted { result } => result.best_answer.clone(),
            _ => None,
        })
        .collect();
    assert!(best.iter().all(|label| label == "agent1.1"), "{best:?}");
    assert!(!best.is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_example_config_runs_offline_to_a_winner() {
    let yaml = include_str!("../../configs/scripted/checklist_gated.yaml");
    let (events, _scenario) = run_once(yaml, "Plan a city break").await;
    let lines = transcript(&events);
    assert!(
        lines.contains(&"analyst checklist new_answer".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"analyst answers agent1.2".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"reviewer checklist vote".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"winner analyst by Votes".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("turn Completed"));
}
