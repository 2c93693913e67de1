//! The criteria checklist-gated voting scores: written for the task by
//! `evaluation_criteria_generator` (the scripted model's `criteria_reply`), MassGen's
//! defaults with a warning when that fails, or `checklist_criteria_inline`; announced with
//! `CriteriaSet` and told to the agents.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::criteria_events::scored_ids;
use crate::support::run_once;
use massgen::protocol::{CriteriaSource, EvalCriterion, Event, EventMsg};

fn criteria_set(events: &[Event]) -> Vec<(CriteriaSource, Vec<EvalCriterion>)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::CriteriaSet { source, criteria } => Some((*source, criteria.clone())),
            _ => None,
        })
        .collect()
}

const GENERATED: &str = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    criteria_reply: 'Here they are: ```json
      {"criteria": [{"text": "Names the river", "category": "primary"},
      {"text": "Is one sentence", "category": "must"},
      {"text": "Mentions a landmark", "category": "could"}]}```'
    checklist:
      - {E1: 3, E2: 9, E3: 2}
      - {E1: 9, E2: 9, E3: 8}
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    evaluation_criteria_generator: {enabled: true, min_criteria: 2, max_criteria: 3}
"#;

#[tokio::test(start_paused = true)]
async fn generated_criteria_reach_the_prompt_and_the_gate_scores_them() {
    let (events, scenario) = run_once(GENERATED, "Capital of France?").await;
    let set = criteria_set(&events);
    assert_eq!(set.len(), 1, "{set:?}");
    let (source, criteria) = &set[0];
    assert_eq!(*source, CriteriaSource::Generated);
    let got: Vec<(&str, &str)> = criteria
        .iter()
        .map(|c| (c.id.as_str(), c.category.as_str()))
        .collect();
    assert_eq!(
        got,
        [("E1", "primary"), ("E2", "standard"), ("E3", "stretch")]
    );
    // The generator's call, then the rounds; a round's prompt lists the generated criteria.
    let requests = scenario.requests_of("solo");
    assert!(
        requests[0].messages[0]
            .content()
            .contains("You are writing the evaluation criteria")
    );
    let round_two = requests
        .iter()
        .map(|request| request.messages[0].content().to_string())
        .find(|system| system.contains("CHECKLIST-GATED VOTING"))
        .unwrap();
    assert!(
        round_two.contains("E1 (primary). Names the river"),
        "{round_two}"
    );
    assert!(!round_two.contains("Requirements fidelity"), "{round_two}");
    // Three criteria scored, not the default four; the second checklist passes and votes.
    assert_eq!(
        scored_ids(&events),
        [["E1", "E2", "E3"], ["E1", "E2", "E3"]]
    );
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
    );
}

#[tokio::test(start_paused = true)]
async fn a_generator_reply_without_criteria_falls_back_to_the_defaults_with_a_warning() {
    let yaml = GENERATED.replace("min_criteria: 2", "min_criteria: 4");
    let yaml = yaml
        .replace("max_criteria: 3", "max_criteria: 7")
        .replace("E3: 2}", "E3: 2, E4: 9}");
    let (events, _scenario) = run_once(&yaml, "Capital of France?").await;
    let set = criteria_set(&events);
    assert_eq!(set[0].0, CriteriaSource::Default);
    assert_eq!(set[0].1.len(), 4);
    let warned = events.iter().any(|event| match &event.msg {
        EventMsg::Warning { message } => {
            message.starts_with("evaluation_criteria_generator:")
                && message.contains("default criteria")
        }
        _ => false,
    });
    assert!(warned);
    // The turn still ran, and the gate scored four criteria.
    assert_eq!(scored_ids(&events)[0], ["E1", "E2", "E3", "E4"]);
}

#[tokio::test(start_paused = true)]
async fn inline_criteria_are_scored_and_announced_without_a_generator_call() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: 9, E2: 9}
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    checklist_criteria_inline:
      - {text: "Names the river", category: primary}
      - {description: "Is one sentence"}
"#;
    let (events, scenario) = run_once(yaml, "Capital of France?").await;
    let set = criteria_set(&events);
    assert_eq!(set[0].0, CriteriaSource::Inline);
    assert_eq!(set[0].1[1].text, "Is one sentence");
    assert_eq!(scored_ids(&events)[0], ["E1", "E2"]);
    let asked = scenario.requests_of("solo").iter().any(|request| {
        request.messages[0]
            .content()
            .contains("evaluation criteria a team")
    });
    assert!(!asked);
}

#[tokio::test(start_paused = true)]
async fn ungated_turns_announce_no_criteria() {
    let yaml = r#"
agent:
  id: solo
  backend: {type: scripted, tokens_per_second: 0, answer: "Paris."}
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    assert!(criteria_set(&events).is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_example_config_generates_three_criteria_and_runs_offline_to_a_winner() {
    let yaml = include_str!("../../configs/scripted/generated_criteria.yaml");
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let set = criteria_set(&events);
    assert_eq!(set[0].0, CriteriaSource::Generated);
    assert_eq!(set[0].1[2].category, "primary");
    let lines = crate::support::transcript(&events);
    assert!(
        lines.contains(&"analyst checklist new_answer".to_string()),
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
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::Warning { .. }))
    );
}

/// The novelty pressure in each of solo's rounds whose checklists keep the same failing
/// scores (every checklist sends it back to `new_answer`).
async fn novelty_by_round(level: &str) -> Vec<Option<String>> {
    let yaml = format!(
        r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["one", "two", "three", "four", "five"]
    checklist:
      - {{E1: 3, E2: 3, E3: 3, E4: 3}}
orchestrator:
  voting_sensitivity: checklist_gated
  max_new_answers_per_agent: 5
  coordination: {{novelty_injection: {level}}}
"#
    );
    let (_events, scenario) = run_once(&yaml, "q").await;
    let mut rounds: Vec<Option<String>> = scenario
        .requests_of("solo")
        .iter()
        .map(|request| request.messages[0].content().to_string())
        .filter(|system| system.contains("<massgen_coordination"))
        .map(|system| {
            let start = system.find("<novelty_pressure priority=\"medium\">\n")?;
            let body = &system[start..];
            Some(body.lines().nth(1).unwrap_or_default().to_string())
        })
        .collect();
    rounds.dedup();
    rounds
}

#[tokio::test(start_paused = true)]
async fn gentle_and_moderate_novelty_press_after_two_converging_checklists() {
    let moderate = novelty_by_round("moderate").await;
    // Rounds 1–4 unpressed (checklists in rounds 2, 3 and 4 make two flat steps), then
    // round 5 on, with the count.
    assert_eq!(moderate[0], None, "{moderate:#?}");
    let pressed = moderate[1].as_deref().unwrap_or_default();
    assert!(
        pressed.starts_with("CONVERGENCE SIGNAL: 2 consecutive rounds produced only incremental"),
        "{moderate:#?}"
    );
    let gentle = novelty_by_round("gentle").await;
    assert_eq!(gentle[0], None);
    let pressed = gentle[1].as_deref().unwrap_or_default();
    assert!(
        pressed.starts_with("Previous rounds identified only incremental improvements."),
        "{gentle:#?}"
    );
    assert_eq!(novelty_by_round("none").await, [None]);
}
