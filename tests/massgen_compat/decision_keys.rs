//! Issue 33's promise on the wheel's configs: no key of how agents decide (checklist-gated
//! voting and its criteria, the final answer, decomposition, fairness and pressure,
//! personas) loads as "ignored" or "runs as" something else.

use std::path::PathBuf;
use std::process::Output;

/// The coordination keys MassGen 0.1.97 added for how agents reach a decision.
const DECISION_KEYS: &[&str] = &[
    "voting_sensitivity",
    "voting_threshold",
    "max_checklist_calls_per_round",
    "checklist_first_answer",
    "checklist_require_gap_report",
    "gap_report_mode",
    "allow_midstream_peer_updates_before_checklist_submit",
    "fast_iteration_mode",
    "max_verifications_per_round",
    "max_internal_fix_loops",
    "evaluation_criteria_generator",
    "checklist_criteria_inline",
    "checklist_criteria_preset",
    "criteria_mode",
    "bootstrap_max_per_agent_per_round",
    "bootstrap_max_total",
    "final_answer_strategy",
    "defer_voting_until_all_answered",
    "max_new_answers_per_agent",
    "max_new_answers_global",
    "coordination_mode",
    "presenter_agent",
    "subtask",
    "fairness_enabled",
    "fairness_lead_cap_answers",
    "max_midstream_injections_per_round",
    "defer_peer_updates_until_restart",
    "novelty_injection",
    "require_substantiveness",
    "persona_generator",
];

/// Each `--validate` warning that leaves one of [`DECISION_KEYS`] unhonoured, with its config.
pub fn unhonoured(configs: &[PathBuf], outputs: &[Output]) -> Vec<String> {
    configs
        .iter()
        .zip(outputs)
        .flat_map(|(config, output)| {
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .filter(|line| names_decision_key(line))
                .map(|line| format!("{}: {line}", config.display()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `…: ignored: orchestrator.coordination.criteria_mode — why` or a `runs as` note, about
/// one of the keys (any segment of the key's path).
fn names_decision_key(line: &str) -> bool {
    let note = line
        .split_once(": ignored: ")
        .or_else(|| line.split_once(" runs as "))
        .map(|(_, rest)| rest);
    let Some(note) = note else {
        return false;
    };
    if line.contains(" runs as ") {
        return DECISION_KEYS.iter().any(|key| line.contains(key));
    }
    let path = note.split(" — ").next().unwrap_or(note);
    path.split(['.', '[', ']'])
        .any(|segment| DECISION_KEYS.contains(&segment))
}

#[test]
fn a_note_on_a_decision_key_is_recognised_and_others_are_not() {
    assert!(names_decision_key(
        "warning: x.yaml:3:5: ignored: orchestrator.coordination.criteria_mode — MassGen would"
    ));
    assert!(names_decision_key(
        "warning: x.yaml: ignored: orchestrator.coordination.persona_generator.strategy — why"
    ));
    assert!(names_decision_key(
        "warning: x.yaml: agents[1]: voting_sensitivity `checklist_gated` runs as `strict`"
    ));
    assert!(!names_decision_key(
        "warning: x.yaml:54:3: ignored: orchestrator.image_generation_backend — MassGen would"
    ));
    assert!(!names_decision_key(
        "note: agent `a`: backend `gemini` needs an API key"
    ));
}
