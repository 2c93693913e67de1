//! Every key MassGen 0.1.97's own validator accepts under `orchestrator`,
//! `orchestrator.coordination` and `timeout_settings`, loaded one at a time: none may come
//! out as an "unknown key" or a bare "not supported yet". The lists are copied from its
//! source: `AgentConfig.valid_orchestrator_keys()` (`orchestrator_runtime_keys()` and
//! `non_runtime_orchestrator_keys()`), `CoordinationConfig.valid_coordination_keys()` (with
//! the removed `async_subagents` it still accepts) and `TimeoutConfig.yaml_timeout_keys()`,
//! all in massgen/agent_config.py and massgen/config_validator.py.

use crate::config::keys;
use crate::config::{Env, from_text};

/// `AgentConfig.orchestrator_runtime_keys()`: the direct fields, the boolean fields and
/// the three extra keys.
const ORCHESTRATOR_RUNTIME: &[&str] = &[
    "voting_sensitivity",
    "voting_threshold",
    "max_new_answers_per_agent",
    "max_new_answers_global",
    "answer_novelty_requirement",
    "fairness_enabled",
    "fairness_lead_cap_answers",
    "max_midstream_injections_per_round",
    "defer_peer_updates_until_restart",
    "allow_midstream_peer_updates_before_checklist_submit",
    "defer_voting_until_all_answered",
    "coordination_mode",
    "presenter_agent",
    "final_answer_strategy",
    "max_checklist_calls_per_round",
    "checklist_first_answer",
    "skip_final_presentation",
    "skip_voting",
    "disable_injection",
    "skip_coordination_rounds",
    "checklist_require_gap_report",
    "gap_report_mode",
    "debug_final_answer",
];

/// `AgentConfig.non_runtime_orchestrator_keys()`.
const ORCHESTRATOR_NON_RUNTIME: &[&str] = &[
    "agent_temporary_workspace",
    "audio_generation_backend",
    "context_paths",
    "coordination",
    "docker",
    "dspy",
    "enable_multimodal_tools",
    "enable_nlip",
    "image_generation_backend",
    "interactive_mode",
    "max_orchestration_restarts",
    "max_turns",
    "multimodal_config",
    "nlip",
    "nlip_config",
    "skills_directory",
    "snapshot_storage",
    "timeout",
    "type",
    "video_generation_backend",
];

/// `CoordinationConfig.yaml_coordination_keys()`, its nested `standalone_checkpoint`, and
/// `async_subagents`, which the validator accepts as a removed key.
const COORDINATION: &[&str] = &[
    "auto_trace_analysis",
    "background_subagents",
    "bootstrap_max_per_agent_per_round",
    "bootstrap_max_total",
    "broadcast",
    "broadcast_sensitivity",
    "broadcast_timeout",
    "broadcast_wait_by_default",
    "checklist_criteria_inline",
    "checklist_criteria_preset",
    "checkpoint_enabled",
    "checkpoint_gated_patterns",
    "checkpoint_guidance",
    "checkpoint_mode",
    "compression_target_ratio",
    "criteria_mode",
    "disable_final_only_round_capture_fallback",
    "drift_conflict_policy",
    "enable_agent_task_planning",
    "enable_changedoc",
    "enable_evaluator_personas",
    "enable_execution_trace_analyzer",
    "enable_memory_filesystem_mode",
    "enable_novelty_on_iteration",
    "enable_planning_mode",
    "enable_quality_rethink_on_iteration",
    "enable_subagents",
    "evaluation_criteria_generator",
    "evolving_criteria",
    "evolving_criteria_max_evolutions",
    "evolving_criteria_min_high_score_count",
    "evolving_criteria_score_threshold",
    "evolving_criteria_timeout",
    "fast_iteration_mode",
    "improvements",
    "learning_capture_mode",
    "load_previous_session_skills",
    "massgen_skills",
    "max_broadcasts_per_agent",
    "max_internal_fix_loops",
    "max_orchestration_restarts",
    "max_tasks_per_plan",
    "max_verifications_per_round",
    "novelty_injection",
    "orchestrator_managed_round_evaluator",
    "persona_generator",
    "plan_depth",
    "plan_target_chunks",
    "plan_target_steps",
    "planning_mode_instruction",
    "pre_collab_voting_threshold",
    "prompt_improver",
    "response_depth",
    "resume_from_log",
    "round_evaluator_before_checklist",
    "round_evaluator_refine",
    "round_evaluator_skip_synthesis",
    "round_evaluator_transformation_pressure",
    "skills_directory",
    "skip_redundant_scaffolding",
    "subagent_default_timeout",
    "subagent_host_launch_prefix",
    "subagent_max_concurrent",
    "subagent_max_timeout",
    "subagent_min_timeout",
    "subagent_orchestrator",
    "subagent_round_timeouts",
    "subagent_runtime_fallback_mode",
    "subagent_runtime_mode",
    "subagent_types",
    "task_decomposer",
    "task_planning_filesystem_mode",
    "use_skills",
    "use_two_tier_workspace",
    "web_review",
    "write_mode",
    "standalone_checkpoint",
    "async_subagents",
];

/// `TimeoutConfig`'s fields.
const TIMEOUTS: &[&str] = &[
    "orchestrator_timeout_seconds",
    "initial_round_timeout_seconds",
    "subsequent_round_timeout_seconds",
    "round_timeout_grace_seconds",
];

/// The warnings of a config whose block at `prefix` (YAML lines ending in an indented key
/// position) holds only `key`, written with a value no parser of an ignored key reads.
fn warnings_for(prefix: &str, key: &str) -> Vec<String> {
    let text =
        format!("agents:\n  - id: a\n    backend: {{type: scripted}}\n{prefix}{key}: {{}}\n");
    match from_text(&text, "m.yaml", &Env::default()) {
        Ok(loaded) => loaded
            .warnings
            .into_iter()
            .map(|warning| warning.message)
            .collect(),
        Err(error) => panic!("`{key}` ({prefix:?}) does not load: {error}"),
    }
}

/// Loads each key massgen does not act on and checks what it says about it.
fn check(section: &str, prefix: &str, accepted: &[&str], acted_on: &[&str]) {
    let mut bare = Vec::new();
    for key in accepted {
        if acted_on.contains(key) {
            continue;
        }
        let warnings = warnings_for(prefix, key);
        let path = format!("{section}.{key}");
        let named = warnings
            .iter()
            .any(|warning| warning.starts_with(&format!("ignored: {path} — ")));
        let vague = warnings.iter().any(|warning| {
            warning.contains("unknown key") || warning.contains("not supported yet")
        });
        if !named || vague {
            bare.push(format!("{path}: {warnings:?}"));
        }
    }
    assert!(
        bare.is_empty(),
        "keys MassGen 0.1.97 accepts without a note saying what MassGen would do:\n{}",
        bare.join("\n")
    );
}

#[test]
fn every_orchestrator_key_massgen_accepts_is_acted_on_or_explained() {
    let accepted: Vec<&str> = ORCHESTRATOR_RUNTIME
        .iter()
        .chain(ORCHESTRATOR_NON_RUNTIME)
        .copied()
        .collect();
    check(
        "orchestrator",
        "orchestrator:\n  ",
        &accepted,
        keys::ORCHESTRATOR,
    );
}

#[test]
fn every_coordination_key_massgen_accepts_is_acted_on_or_explained() {
    check(
        "orchestrator.coordination",
        "orchestrator:\n  coordination:\n    ",
        COORDINATION,
        keys::COORDINATION,
    );
}

#[test]
fn every_timeout_key_massgen_accepts_is_acted_on_or_explained() {
    check(
        "timeout_settings",
        "timeout_settings:\n  ",
        TIMEOUTS,
        keys::TIMEOUTS,
    );
}

#[test]
fn max_orchestration_restarts_outside_coordination_says_where_it_belongs() {
    let warnings = warnings_for("orchestrator:\n  ", "max_orchestration_restarts");
    assert!(
        warnings.iter().any(
            |warning| warning.contains("orchestrator.max_orchestration_restarts")
                && warning.contains("orchestrator.coordination")
        ),
        "{warnings:?}"
    );
}
