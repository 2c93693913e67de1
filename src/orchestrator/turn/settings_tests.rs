//! Unit tests of how a turn's settings follow from config, mode and options.

use super::*;
use crate::config::{Env, from_text};

fn config(orchestrator: &str) -> Config {
    let yaml = format!(
        "agents:\n  - {{id: a, backend: {{type: scripted}}}}\n  - {{id: b, backend: {{type: \
         scripted}}}}\norchestrator:\n{orchestrator}"
    );
    from_text(&yaml, "t.yaml", &Env::default()).unwrap().config
}

fn options(refine: bool, single: Option<&str>) -> TurnOptions {
    TurnOptions {
        refine,
        single_agent: single.map(AgentId::new),
        ..TurnOptions::default()
    }
}

#[test]
fn refine_on_keeps_the_config_rules() {
    let settings = resolve(
        &config("  max_new_answers_per_agent: 3\n"),
        Mode::Normal,
        &TurnOptions::default(),
        true,
    );
    assert_eq!(settings.participants.len(), 2);
    assert_eq!(settings.rules.max_new_answers_per_agent, Some(3));
    assert!(!settings.rules.skip_voting && !settings.rules.disable_injection);
    assert_eq!(settings.final_answer, FinalAnswerStrategy::WinnerPresent);
    assert!(settings.task_planning.is_none() && settings.broadcast.is_none());
}

#[test]
fn refine_off_presets_follow_massgen() {
    let single = resolve(
        &config("  voting_sensitivity: lenient\n"),
        Mode::Normal,
        &options(false, Some("b")),
        true,
    );
    assert_eq!(single.participants, vec![AgentId::new("b")]);
    assert_eq!(single.rules.max_new_answers_per_agent, Some(1));
    assert!(single.rules.skip_voting);
    assert_eq!(single.final_answer, FinalAnswerStrategy::WinnerReuse);
    assert!(!single.rules.disable_injection && !single.rules.defer_voting);

    let multi = resolve(
        &config("  voting_sensitivity: lenient\n"),
        Mode::Normal,
        &options(false, None),
        true,
    );
    assert_eq!(multi.rules.max_new_answers_per_agent, Some(1));
    assert!(multi.rules.disable_injection && multi.rules.defer_voting);
    assert!(!multi.rules.skip_voting);
    assert_eq!(multi.final_answer, FinalAnswerStrategy::Synthesize);
}

#[test]
fn an_unknown_single_agent_is_reported_and_everyone_works() {
    let settings = resolve(
        &config("  voting_sensitivity: lenient\n"),
        Mode::Normal,
        &options(true, Some("zed")),
        true,
    );
    assert_eq!(settings.participants.len(), 2);
    assert!(
        settings.notes[0].contains("no agent `zed`"),
        "{:?}",
        settings.notes
    );
}

#[test]
fn plan_modes_turn_on_filesystem_task_plans_and_planning_asks_the_human() {
    let config = config("  coordination: {max_tasks_per_plan: 7}\n");
    let planning = resolve(&config, Mode::Planning, &TurnOptions::default(), true);
    assert_eq!(
        planning.task_planning,
        Some(TaskPlanning {
            filesystem: true,
            max_tasks: 7
        })
    );
    assert_eq!(
        planning.broadcast.map(|broadcast| broadcast.target),
        Some(BroadcastTarget::Human)
    );
    let execute = resolve(&config, Mode::Execute, &TurnOptions::default(), true);
    assert!(execute.task_planning.is_some() && execute.broadcast.is_none());
    let agents_only = TurnOptions {
        broadcast: Some(BroadcastTarget::Agents),
        ..TurnOptions::default()
    };
    let planning = resolve(&config, Mode::Planning, &agents_only, true);
    assert_eq!(
        planning.broadcast.map(|broadcast| broadcast.target),
        Some(BroadcastTarget::Agents)
    );
}

#[test]
fn nobody_to_ask_turns_human_broadcast_off_with_a_note() {
    let config = config("  coordination: {broadcast: human, broadcast_wait_by_default: false}\n");
    let settings = resolve(&config, Mode::Normal, &TurnOptions::default(), false);
    assert!(settings.broadcast.is_none());
    assert!(settings.notes[0].contains("cannot ask you"));
    let settings = resolve(&config, Mode::Normal, &TurnOptions::default(), true);
    assert_eq!(
        settings.broadcast,
        Some(BroadcastSettings {
            target: BroadcastTarget::Human,
            wait_by_default: false
        })
    );
}

#[test]
fn planning_mode_uses_the_configured_instruction() {
    let config = config(
        "  coordination: {enable_planning_mode: true, planning_mode_instruction: Only plan.}\n",
    );
    let settings = resolve(&config, Mode::Normal, &TurnOptions::default(), true);
    assert!(settings.planning_mode);
    assert_eq!(settings.planning_instruction, "Only plan.");
}

#[test]
fn memory_mode_without_workspaces_is_noted() {
    let memory = "  coordination: {enable_memory_filesystem_mode: true}\n";
    let settings = resolve(&config(memory), Mode::Normal, &TurnOptions::default(), true);
    assert!(
        settings
            .notes
            .iter()
            .any(|note| note.contains("no memories are kept")),
        "{:?}",
        settings.notes
    );
    let off = resolve(&config(""), Mode::Normal, &TurnOptions::default(), true);
    assert!(off.notes.is_empty(), "{:?}", off.notes);
}

#[test]
fn the_final_answer_strategy_is_the_configured_one_or_massgens_legacy_rule() {
    let strategy = |extra: &str, refine: bool| {
        resolve(&config(extra), Mode::Normal, &options(refine, None), true).final_answer
    };
    assert_eq!(strategy("", true), FinalAnswerStrategy::WinnerPresent);
    assert_eq!(
        strategy("  skip_final_presentation: true\n", true),
        FinalAnswerStrategy::WinnerReuse
    );
    assert_eq!(
        strategy("  final_answer_strategy: winner_present\n", false),
        FinalAnswerStrategy::Synthesize,
        "refine off synthesizes several agents' answers, as MassGen's quick mode"
    );
    assert_eq!(
        strategy(
            "  skip_final_presentation: true\n  final_answer_strategy: synthesize\n",
            true
        ),
        FinalAnswerStrategy::Synthesize
    );
}

#[test]
fn synthesize_skips_the_vote_only_for_one_answer_each_without_deferred_voting() {
    let skips = |extra: &str, single: Option<&str>| {
        resolve(
            &config(&format!("  final_answer_strategy: synthesize\n{extra}")),
            Mode::Normal,
            &options(true, single),
            true,
        )
        .rules
        .skip_voting
    };
    assert!(skips("  max_new_answers_per_agent: 1\n", None));
    assert!(!skips("", None));
    assert!(!skips("  max_new_answers_per_agent: 2\n", None));
    assert!(!skips(
        "  max_new_answers_per_agent: 1\n  defer_voting_until_all_answered: true\n",
        None
    ));
    assert!(!skips("  max_new_answers_per_agent: 1\n", Some("a")));
}
