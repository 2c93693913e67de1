//! `criteria_mode: bootstrap_inline`: agents propose criteria with `submit_checklist`
//! (`proposed_criteria`, the scripted model's `proposed_criteria`); the next round start
//! merges them after the turn's own criteria (capped per agent and in total), announces
//! them with `CriteriaSet` (source bootstrap), and the gate scores them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::criteria_events::{announced, scored_ids};
use crate::support::run_once;
use massgen::protocol::{CriteriaSource, EventMsg};

const INLINE: &str = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine.", "Paris, on the Seine, home of the Louvre."]
    checklist:
      - {E1: 3, E2: 3}
      - {E1: 9, E2: 9, E3: 9, E4: 9}
    proposed_criteria:
      - - {text: "Names the river", category: primary}
        - {text: "Cites a source", category: must}
        - {text: "Mentions a landmark", category: could}
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    checklist_criteria_inline:
      - {text: "Answers the question", category: primary}
      - {text: "Is one sentence"}
    criteria_mode: bootstrap_inline
    bootstrap_max_per_agent_per_round: 2
"#;

#[tokio::test(start_paused = true)]
async fn proposals_join_the_criteria_at_the_next_round_and_the_gate_scores_them() {
    let (events, scenario) = run_once(INLINE, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.len(), 2, "{set:#?}");
    assert_eq!(set[0].0, CriteriaSource::Inline);
    assert_eq!(set[1].0, CriteriaSource::Bootstrap);
    // Three proposed, the per-agent cap of 2 keeps the newest two, numbered on.
    assert_eq!(
        set[1].1,
        [
            "E1 primary Answers the question",
            "E2 standard Is one sentence",
            "E3 standard Cites a source",
            "E4 stretch Mentions a landmark",
        ]
    );
    // The checklist that proposed scored two criteria; the next one scores four and votes.
    assert_eq!(
        scored_ids(&events),
        [vec!["E1", "E2"], vec!["E1", "E2", "E3", "E4"]]
    );
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
    );
    // The agent is invited to propose and offered the parameter; its later round's prompt
    // lists the merged criteria.
    let requests = scenario.requests_of("solo");
    let offered = requests.iter().any(|request| {
        request.tools.iter().any(|tool| {
            tool.name == "submit_checklist"
                && tool.parameters["properties"]
                    .get("proposed_criteria")
                    .is_some()
        })
    });
    assert!(offered);
    let systems: Vec<String> = requests
        .iter()
        .map(|request| request.messages[0].content().to_string())
        .collect();
    assert!(
        systems
            .iter()
            .any(|s| s.contains("CRITERIA EMERGENCE (DISCRIMINATIVE)"))
    );
    assert!(
        systems
            .iter()
            .any(|s| s.contains("E4 (stretch). Mentions a landmark"))
    );
}

#[tokio::test(start_paused = true)]
async fn the_total_cap_keeps_the_newest_proposals() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["one", "two", "three", "four"]
    checklist:
      - {E1: 3, E2: 3}
      - {E1: 3, E2: 3, E3: 3, E4: 3}
      - {E1: 9, E2: 9, E3: 9, E4: 9, E5: 9}
    proposed_criteria:
      - [{text: "a"}, {text: "b"}]
      - [{text: "c"}, {text: "Is one sentence"}, {text: "d"}]
orchestrator:
  voting_sensitivity: checklist_gated
  max_new_answers_per_agent: 4
  coordination:
    checklist_criteria_inline:
      - {text: "Answers the question"}
      - {text: "Is one sentence"}
    criteria_mode: bootstrap_inline
    bootstrap_max_per_agent_per_round: 0
    bootstrap_max_total: 4
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    let set = announced(&events);
    let texts = |index: usize| -> Vec<String> {
        set[index]
            .1
            .iter()
            .map(|line| line.rsplit(' ').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(set.len(), 3, "{set:#?}");
    assert_eq!(texts(1), ["question", "sentence", "a", "b"]);
    // a, b, c, "Is one sentence", d: the cap of 4 drops a; the base's own text is not
    // repeated.
    assert_eq!(texts(2), ["question", "sentence", "b", "c", "d"]);
    assert_eq!(
        scored_ids(&events),
        [
            vec!["E1", "E2"],
            vec!["E1", "E2", "E3", "E4"],
            vec!["E1", "E2", "E3", "E4", "E5"]
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn static_criteria_ignore_proposals_and_offer_no_parameter() {
    let yaml = INLINE
        .replace("criteria_mode: bootstrap_inline", "criteria_mode: static")
        .replace("{E1: 9, E2: 9, E3: 9, E4: 9}", "{E1: 9, E2: 9}");
    let (events, scenario) = run_once(&yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.len(), 1, "{set:#?}");
    assert_eq!(scored_ids(&events), [vec!["E1", "E2"], vec!["E1", "E2"]]);
    let offered = scenario.requests_of("solo").iter().any(|request| {
        request.tools.iter().any(|tool| {
            tool.parameters["properties"]
                .get("proposed_criteria")
                .is_some()
        })
    });
    assert!(!offered);
}

#[tokio::test(start_paused = true)]
async fn the_example_config_grows_its_criteria_offline() {
    let yaml = include_str!("../../configs/scripted/bootstrap_criteria.yaml");
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set.last().unwrap().0, CriteriaSource::Bootstrap, "{set:#?}");
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::Warning { .. }))
    );
}

#[tokio::test(start_paused = true)]
async fn proposals_replace_massgen_default_criteria() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: 3, E2: 3, E3: 3, E4: 3}
      - {E1: 9, E2: 9}
    proposed_criteria:
      - [{text: "Names the river", category: primary}, {text: "Is one sentence"}]
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    criteria_mode: bootstrap_inline
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set[0].0, CriteriaSource::Default);
    assert_eq!(set[0].1.len(), 4);
    // MassGen's generic defaults give way to the proposals alone, numbered from E1.
    assert_eq!(
        set[1],
        (
            CriteriaSource::Bootstrap,
            vec![
                "E1 primary Names the river".to_string(),
                "E2 standard Is one sentence".to_string()
            ]
        )
    );
    assert_eq!(
        scored_ids(&events),
        [vec!["E1", "E2", "E3", "E4"], vec!["E1", "E2"]]
    );
}

#[tokio::test(start_paused = true)]
async fn a_criterion_every_answer_scored_alike_is_demoted_to_stretch() {
    // The analyst's first checklist scores agent1 8/4/3 and agent2 5/5/5: E2 spreads 0.5,
    // below MassGen's 0.75, and one of three scored criteria may go.
    let yaml = include_str!("../../configs/scripted/generated_criteria.yaml").replace(
        "  coordination:\n",
        "  coordination:\n    criteria_mode: bootstrap_inline\n",
    );
    let (events, _scenario) = run_once(&yaml, "Capital of France?").await;
    let set = announced(&events);
    assert_eq!(set[0].0, CriteriaSource::Generated);
    assert!(set[0].1[1].starts_with("E2 standard"), "{set:#?}");
    let demoted = set
        .iter()
        .find(|(source, _)| *source == CriteriaSource::Bootstrap)
        .unwrap();
    assert!(demoted.1[1].starts_with("E2 stretch"), "{set:#?}");
    assert!(demoted.1[0].starts_with("E1 standard"), "{set:#?}");
    assert!(demoted.1[2].starts_with("E3 primary"), "{set:#?}");
}
