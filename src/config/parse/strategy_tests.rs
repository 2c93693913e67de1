//! `orchestrator.strategy`, `rank_own` and `chairman`: what loads and the errors that name
//! the key and the allowed values.

use crate::config::{DebateConfig, DebateFinish, Env, from_text};
use crate::protocol::{AgentId, Strategy};

fn config(orchestrator: &str) -> String {
    format!(
        "agents:\n  - id: a\n    backend: {{type: scripted}}\n  - id: b\n    backend: {{type: scripted}}\norchestrator:\n{orchestrator}"
    )
}

fn error(orchestrator: &str) -> String {
    match from_text(&config(orchestrator), "test.yaml", &Env::default()) {
        Ok(_) => panic!("{orchestrator} loaded"),
        Err(error) => format!("{} {}", error.message, error.help.unwrap_or_default()),
    }
}

#[test]
fn council_with_a_chairman_and_rank_own_loads() {
    let loaded = from_text(
        &config("  strategy: council\n  rank_own: true\n  chairman: b\n"),
        "test.yaml",
        &Env::default(),
    )
    .unwrap();
    let orchestrator = &loaded.config.orchestrator;
    assert_eq!(orchestrator.strategy, Strategy::Council);
    assert!(orchestrator.council.rank_own);
    assert_eq!(orchestrator.council.chairman, Some(AgentId::new("b")));
    let unset = from_text(
        &config("  skip_voting: false\n"),
        "test.yaml",
        &Env::default(),
    )
    .unwrap();
    assert_eq!(unset.config.orchestrator.strategy, Strategy::Vote);
    assert!(!unset.config.orchestrator.council.rank_own);
}

#[test]
fn a_wrong_strategy_names_the_key_and_the_allowed_values() {
    let message = error("  strategy: councel\n");
    assert!(
        message.contains("`orchestrator.strategy` cannot be \"councel\""),
        "{message}"
    );
    assert!(message.contains("vote, council, debate"), "{message}");
}

#[test]
fn debate_loads_with_its_rounds_and_finish() {
    let loaded = from_text(
        &config("  strategy: debate\n  debate_rounds: 3\n  debate_finish: vote\n"),
        "test.yaml",
        &Env::default(),
    )
    .unwrap();
    let orchestrator = &loaded.config.orchestrator;
    assert_eq!(orchestrator.strategy, Strategy::Debate);
    assert_eq!(orchestrator.debate.rounds, 3);
    assert_eq!(orchestrator.debate.finish, DebateFinish::Vote);
    let unset = from_text(
        &config("  strategy: debate\n"),
        "test.yaml",
        &Env::default(),
    )
    .unwrap();
    assert_eq!(unset.config.orchestrator.debate, DebateConfig::default());
    assert_eq!(unset.config.orchestrator.debate.rounds, 2);
    assert_eq!(
        unset.config.orchestrator.debate.finish,
        DebateFinish::Synthesize
    );
}

#[test]
fn debate_rounds_out_of_range_or_not_a_number_are_refused() {
    for rounds in ["0", "11"] {
        let message = error(&format!("  strategy: debate\n  debate_rounds: {rounds}\n"));
        assert!(
            message.contains(&format!("`orchestrator.debate_rounds` cannot be {rounds}")),
            "{message}"
        );
        assert!(message.contains("1 to 10 rounds"), "{message}");
    }
    let message = error("  debate_rounds: many\n");
    assert!(message.contains("debate_rounds"), "{message}");
    assert!(message.contains("whole number"), "{message}");
    let message = error("  debate_finish: chairman\n");
    assert!(
        message.contains("`orchestrator.debate_finish` cannot be \"chairman\""),
        "{message}"
    );
    assert!(message.contains("synthesize, vote"), "{message}");
}

#[test]
fn a_chairman_that_names_no_agent_lists_the_agents() {
    let message = error("  strategy: council\n  chairman: zed\n");
    assert!(
        message.contains("orchestrator.chairman `zed` names no agent; the agents are: a, b"),
        "{message}"
    );
}

#[test]
fn a_chairman_with_its_own_backend_block_joins_the_agents_last() {
    let loaded = from_text(
        &config("  strategy: council\n  chairman: {id: judge, backend: {type: scripted}}\n"),
        "test.yaml",
        &Env::default(),
    )
    .unwrap();
    let ids: Vec<&str> = loaded
        .config
        .agents
        .iter()
        .map(|agent| agent.id.as_str())
        .collect();
    assert_eq!(ids, ["a", "b", "judge"]);
    let council = &loaded.config.orchestrator.council;
    assert_eq!(council.chairman, Some(AgentId::new("judge")));
    assert!(council.chairman_outside);
}

#[test]
fn a_chairman_block_needs_its_own_id_and_a_backend() {
    let clash = error("  strategy: council\n  chairman: {id: a, backend: {type: scripted}}\n");
    assert!(
        clash.contains("has the id `a` of an agent that answers"),
        "{clash}"
    );
    let no_backend = error("  strategy: council\n  chairman: {id: judge}\n");
    assert!(
        no_backend.contains("`judge` has no `backend`"),
        "{no_backend}"
    );
}

#[test]
fn rank_own_must_be_a_boolean() {
    let message = error("  rank_own: sometimes\n");
    assert!(message.contains("rank_own"), "{message}");
}
