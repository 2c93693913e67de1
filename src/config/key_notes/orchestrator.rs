//! Notes for `orchestrator`, `orchestrator.coordination` and `timeout_settings`.

pub(super) fn orchestrator(key: &str) -> Option<&'static str> {
    Some(match key {
        "session_storage" => {
            "MassGen 0.1.97 ignores it too (sessions always live in .massgen/sessions); massgen \
             keeps sessions in .massgen/sessions"
        }
        "enable_nlip" | "nlip_config" => {
            "MassGen would route tool calls through its NLIP router; massgen calls tools directly"
        }
        "dspy" => {
            "MassGen would paraphrase the question differently for each agent with DSPy; \
             massgen gives every agent the question as written"
        }
        "docker" => {
            "MassGen would keep or remove its command-line Docker containers between turns with \
             these settings; massgen uses no Docker containers"
        }
        "min_answers_before_voting" | "use_skills_registry" => {
            "MassGen 0.1.97 does not read this key either; massgen ignores it"
        }
        "memory" => {
            "MassGen would configure its persistent agent memory here; massgen keeps no memory \
             beyond the session's conversation"
        }
        "type" | "max_turns" => {
            "MassGen 0.1.97 does not read this key either (a shipped config sets it); massgen \
             ignores it"
        }
        "nlip" => {
            "MassGen reads orchestrator-level NLIP from `enable_nlip` and `nlip_config`, not \
             `nlip`, so MassGen ignores it too; massgen calls tools directly"
        }
        "multimodal_config"
        | "image_generation_backend"
        | "image_generation_model"
        | "video_generation_backend"
        | "video_generation_model"
        | "audio_generation_backend"
        | "audio_generation_model" => {
            "MassGen would pick the backends and models of its media tools with these; \
             massgen's `read_media` asks the agent's own model, and massgen generates no media"
        }
        "skills_directory" => {
            "MassGen reads the skills directory from `orchestrator.coordination`, not here, so \
             MassGen ignores it too; so does massgen: move it under `coordination`"
        }
        "max_orchestration_restarts" => {
            "MassGen 0.1.97 accepts it here but reads it only under `orchestrator.coordination`, \
             so neither MassGen nor massgen restarts on it; massgen acts on \
             `orchestrator.coordination.max_orchestration_restarts`: move it there"
        }
        "interactive_mode" => {
            "MassGen 0.1.97 accepts it but never reads it: its interactive session (one question \
             after another in the same conversation) starts whenever no question is given on \
             the command line; massgen does the same (the full-screen display, or one question \
             a line from stdin)"
        }
        _ => return None,
    })
}

pub(super) fn coordination(key: &str) -> Option<&'static str> {
    Some(match key {
        "broadcast_sensitivity" => {
            "MassGen would tell agents how often to use `ask_others` (low, medium, high); \
             massgen's broadcast prompt uses MassGen's default (medium)"
        }
        "response_depth" => {
            "MassGen would tell agents answering `ask_others` how elaborate to be; massgen \
             leaves the depth to them"
        }
        "massgen_skills" => {
            "MassGen would also give agents the skills bundled with MassGen (these names only); \
             massgen bundles none and lists the skills in `skills_directory` and ~/.agent/skills"
        }
        "enable_subagents"
        | "subagent_default_timeout"
        | "subagent_min_timeout"
        | "subagent_max_timeout"
        | "subagent_max_concurrent"
        | "subagent_round_timeouts"
        | "subagent_orchestrator"
        | "subagent_runtime_mode"
        | "subagent_runtime_fallback_mode"
        | "subagent_host_launch_prefix"
        | "subagent_types"
        | "background_subagents"
        | "async_subagents" => {
            "MassGen would give agents tools to spawn subagents with their own context and \
             workspace; massgen has no subagents"
        }
        "use_two_tier_workspace" | "write_mode" | "drift_conflict_policy" => {
            "MassGen would isolate agents' writes to your files (git worktrees or shadow copies) \
             and apply the winner's changes at the end; massgen lets agents write granted \
             context paths directly"
        }
        "enable_changedoc" => {
            "MassGen would have agents keep a changedoc.md decision journal; massgen does not"
        }
        "learning_capture_mode" | "disable_final_only_round_capture_fallback" => {
            "MassGen would decide when agents write evolving skills and memories; massgen has \
             neither"
        }
        "fairness_enabled" | "fairness_lead_cap_answers" | "max_midstream_injections_per_round" => {
            "MassGen reads this from `orchestrator`, not `orchestrator.coordination`, so \
             MassGen ignores it here too; massgen ignores it (set it under `orchestrator`)"
        }
        "injection_strategy" => {
            "MassGen reads it under `background_subagents` only; massgen has no subagents"
        }
        "enable_novelty_on_iteration" | "enable_quality_rethink_on_iteration" => {
            "MassGen would push agents toward novel or rethought answers from the second \
             iteration on; massgen uses `answer_novelty_requirement` only"
        }
        "max_new_answers_global" => {
            "MassGen reads this from `orchestrator`, not `orchestrator.coordination`, so \
             MassGen ignores it here too; massgen ignores it (set it under `orchestrator`)"
        }
        "plan_target_steps" | "plan_target_chunks" => {
            "MassGen would aim task plans at this many steps or chunks; massgen sizes plans by \
             `plan_depth`"
        }
        "evolving_criteria"
        | "evolving_criteria_score_threshold"
        | "evolving_criteria_max_evolutions"
        | "evolving_criteria_min_high_score_count"
        | "evolving_criteria_timeout"
        | "improvements" => {
            "MassGen would let agents propose, or evolve between rounds, the criteria of its \
             checklist voting; massgen keeps a turn's criteria as they were set before its \
             first round"
        }
        "prompt_improver" | "pre_collab_voting_threshold" | "task_decomposer" => {
            "MassGen would run a preliminary multi-agent pass (rewrite the question, split the \
             task, generate personas) before the turn; massgen starts the turn directly"
        }
        "round_evaluator_before_checklist"
        | "orchestrator_managed_round_evaluator"
        | "round_evaluator_skip_synthesis"
        | "round_evaluator_refine"
        | "round_evaluator_transformation_pressure"
        | "enable_execution_trace_analyzer"
        | "auto_trace_analysis"
        | "enable_evaluator_personas" => {
            "MassGen would have evaluator subagents critique each round's answers; massgen has \
             no subagents"
        }
        "resume_from_log" => {
            "MassGen would resume coordination from a round of an earlier run's log; massgen \
             continues sessions with --continue instead"
        }
        "checkpoint_enabled"
        | "checkpoint_mode"
        | "checkpoint_guidance"
        | "checkpoint_gated_patterns"
        | "standalone_checkpoint"
        | "standalone_checkpoint_enabled"
        | "standalone_checkpoint_team_config"
        | "standalone_checkpoint_mode"
        | "standalone_checkpoint_single"
        | "standalone_checkpoint_include_workspace_context" => {
            "MassGen would let one agent call a whole team at checkpoints; massgen has no \
             checkpoints"
        }
        "web_review" => {
            "MassGen would show a change-review dialog in its web UI; massgen has no web UI"
        }
        "use_skills_registry" => "MassGen 0.1.97 does not read this key either; massgen ignores it",
        "skip_redundant_scaffolding" => {
            "MassGen would tell agents to continue existing scaffolding files instead of \
             recreating them; massgen adds no such instruction"
        }
        _ => return None,
    })
}

pub(super) fn timeouts(key: &str) -> Option<&'static str> {
    Some(match key {
        "agent_timeout_seconds" => {
            "MassGen 0.1.97 does not read it any more; massgen bounds each model call with the \
             backend's `timeout` and the turn with `orchestrator_timeout_seconds`"
        }
        _ => return None,
    })
}
