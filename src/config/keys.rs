//! Which MassGen config keys massgen acts on, and which it knows but ignores for now.
//!
//! A key in an `*_UNSUPPORTED` list gets "ignored: X — <what MassGen would have done>" (the
//! notes live in `key_notes`); a key in neither list gets "ignored: unknown key" with a
//! suggestion. Neither stops a run, so real MassGen configs always load.

use crate::config::backend_kind::BackendKind;

pub const TOP_LEVEL: &[&str] = &[
    "agent",
    "agents",
    "orchestrator",
    "timeout_settings",
    "ui",
    "limits",
    "display",
    "permissions",
];

/// Top-level keys MassGen reads (`memory`, `nlip`, …) or that its shipped configs write
/// although MassGen ignores them too (`timeout`, `task`).
pub const TOP_LEVEL_UNSUPPORTED: &[&str] = &[
    "memory",
    "filesystem_memory",
    "rate_limits",
    "nlip",
    "timeout",
    "task",
];

pub const AGENT: &[&str] = &[
    "id",
    "backend",
    "system_message",
    "voting_sensitivity",
    "persona",
    "subtask",
];
pub const AGENT_UNSUPPORTED: &[&str] = &[
    "memory",
    "enable_nlip",
    "nlip",
    "subagent_agents",
    "append_system_prompt",
];

/// Backend keys every backend type reads. Others are sorted by `provider_options`.
pub const BACKEND_COMMON: &[&str] = &[
    "type",
    "model",
    "api_key",
    "base_url",
    "temperature",
    "max_tokens",
    "api_version",
    "max_retries",
    "timeout",
    "upload_files",
    "context_window",
];

/// Backend keys of every type but `scripted` that the request options read themselves
/// rather than send as they are.
pub const BACKEND_REQUEST: &[&str] = &["extra_body", "betas"];

/// MassGen's tool keys that massgen acts on; never sent to a provider.
pub const BACKEND_TOOLS: &[&str] = &[
    "cwd",
    "mcp_servers",
    "exclude_tools",
    "allowed_tools",
    "enable_mcp_command_line",
    "command_line_execution_mode",
    "command_line_allowed_commands",
    "command_line_blocked_commands",
    "command_line_network",
    "command_line_docker_image",
    "command_line_docker_network_mode",
    "command_line_docker_memory_limit",
    "command_line_docker_cpu_limit",
    "command_line_docker_enable_sudo",
    "command_line_docker_credentials",
    "command_line_docker_packages",
    "command_line_srt_read_mode",
    "command_line_srt_allow_read",
    "command_line_srt_deny_read",
    "command_line_srt_allow_unix_sockets",
    "command_line_srt_network_allowed_domains",
    "exclude_file_operation_mcps",
    "concurrent_tool_execution",
    "max_concurrent_tools",
    "debug_delay_seconds",
    "debug_delay_after_n_tools",
    "auto_discover_custom_tools",
    "custom_tools",
    "enable_code_based_tools",
    "direct_mcp_servers",
    "shared_tools_directory",
    "enable_multimodal_tools",
    "permissions",
];

/// The keys an agent CLI's backend acts on beyond the shared ones (`allowed_tools` and
/// `enable_web_search` among them), by CLI; `config::agent_cli` says what each does.
pub fn agent_cli(kind: BackendKind) -> &'static [&'static str] {
    match kind {
        BackendKind::ClaudeCode => &[
            "system_prompt",
            "append_system_prompt",
            "permission_mode",
            "disallowed_tools",
            "max_thinking_tokens",
            "reasoning",
        ],
        BackendKind::Codex => &[
            "system_prompt",
            "append_system_prompt",
            "reasoning",
            "model_reasoning_effort",
        ],
        BackendKind::GeminiCli => &["system_prompt", "append_system_prompt"],
        _ => &[],
    }
}

/// MassGen's own backend keys (tools, filesystem, frameworks) not acted on yet; they are
/// never sent to a provider.
pub const BACKEND_UNSUPPORTED: &[&str] = &[
    "enable_image_generation",
    "enable_audio_generation",
    "enable_file_generation",
    "enable_video_generation",
    "disallowed_tools",
    "custom_tools_path",
    "exclude_custom_tools",
    "permission_mode",
    "max_thinking_tokens",
    "system_prompt",
    "append_system_prompt",
    "use_default_prompt",
    "agent_config",
    "api_version",
    "enable_rate_limit",
];

pub fn is_backend_unsupported(key: &str) -> bool {
    BACKEND_UNSUPPORTED.contains(&key)
        || (key.starts_with("command_line_") && !BACKEND_TOOLS.contains(&key))
}

/// Keys of one `mcp_servers` entry.
pub const MCP_SERVER: &[&str] = &[
    "name",
    "type",
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "timeout",
    "connect_timeout",
    "allowed_tools",
    "exclude_tools",
    "security",
    "strict",
];
pub const MCP_SERVER_UNSUPPORTED: &[&str] = &["http_read_timeout", "defer_loading"];

/// Keys of one `context_paths` entry.
pub const CONTEXT_PATH: &[&str] = &["path", "permission", "protected_paths"];

pub const ORCHESTRATOR: &[&str] = &[
    "voting_sensitivity",
    "voting_threshold",
    "max_checklist_calls_per_round",
    "checklist_first_answer",
    "checklist_require_gap_report",
    "gap_report_mode",
    "allow_midstream_peer_updates_before_checklist_submit",
    "answer_novelty_requirement",
    "max_new_answers_per_agent",
    "max_new_answers_global",
    "context_paths",
    "snapshot_storage",
    "agent_temporary_workspace",
    "coordination",
    "defer_voting_until_all_answered",
    "skip_voting",
    "disable_injection",
    "skip_final_presentation",
    "max_cost_usd",
    "skip_coordination_rounds",
    "debug_final_answer",
    "enable_multimodal_tools",
    "final_answer_strategy",
    "fairness_enabled",
    "fairness_lead_cap_answers",
    "max_midstream_injections_per_round",
    "defer_peer_updates_until_restart",
    "coordination_mode",
    "presenter_agent",
    "strategy",
    "rank_own",
    "chairman",
    "debate_rounds",
    "debate_finish",
];
pub const ORCHESTRATOR_UNSUPPORTED: &[&str] = &[
    "session_storage",
    "enable_nlip",
    "nlip_config",
    "dspy",
    "docker",
    "min_answers_before_voting",
    "memory",
    "multimodal_config",
    "image_generation_backend",
    "image_generation_model",
    "video_generation_backend",
    "video_generation_model",
    "audio_generation_backend",
    "audio_generation_model",
    "skills_directory",
    "type",
    "max_turns",
    "nlip",
    "max_orchestration_restarts",
    "interactive_mode",
];

/// `orchestrator.coordination` keys massgen acts on.
pub const COORDINATION: &[&str] = &[
    "enable_planning_mode",
    "planning_mode_instruction",
    "enable_agent_task_planning",
    "max_tasks_per_plan",
    "task_planning_filesystem_mode",
    "plan_depth",
    "broadcast",
    "broadcast_timeout",
    "max_broadcasts_per_agent",
    "broadcast_wait_by_default",
    "max_orchestration_restarts",
    "enable_memory_filesystem_mode",
    "use_skills",
    "skills_directory",
    "load_previous_session_skills",
    "compression_target_ratio",
    "novelty_injection",
    "persona_generator",
    "fast_iteration_mode",
    "max_verifications_per_round",
    "max_internal_fix_loops",
    "checklist_criteria_inline",
    "checklist_criteria_preset",
    "evaluation_criteria_generator",
    "criteria_mode",
    "bootstrap_max_per_agent_per_round",
    "bootstrap_max_total",
];
/// MassGen's other coordination keys (up to 0.1.97), known but not acted on yet.
pub const COORDINATION_UNSUPPORTED: &[&str] = &[
    "broadcast_sensitivity",
    "response_depth",
    "massgen_skills",
    "enable_subagents",
    "subagent_default_timeout",
    "subagent_min_timeout",
    "subagent_max_timeout",
    "subagent_max_concurrent",
    "subagent_round_timeouts",
    "subagent_orchestrator",
    "async_subagents",
    "use_two_tier_workspace",
    "enable_changedoc",
    "learning_capture_mode",
    "fairness_enabled",
    "fairness_lead_cap_answers",
    "max_midstream_injections_per_round",
    "injection_strategy",
    "write_mode",
    "drift_conflict_policy",
    "enable_novelty_on_iteration",
    "max_new_answers_global",
    "use_skills_registry",
    "plan_target_steps",
    "plan_target_chunks",
    "disable_final_only_round_capture_fallback",
    "prompt_improver",
    "pre_collab_voting_threshold",
    "subagent_runtime_mode",
    "subagent_runtime_fallback_mode",
    "subagent_host_launch_prefix",
    "background_subagents",
    "task_decomposer",
    "subagent_types",
    "round_evaluator_before_checklist",
    "orchestrator_managed_round_evaluator",
    "round_evaluator_skip_synthesis",
    "round_evaluator_refine",
    "round_evaluator_transformation_pressure",
    "enable_quality_rethink_on_iteration",
    "enable_execution_trace_analyzer",
    "auto_trace_analysis",
    "evolving_criteria",
    "evolving_criteria_score_threshold",
    "evolving_criteria_max_evolutions",
    "evolving_criteria_min_high_score_count",
    "evolving_criteria_timeout",
    "enable_evaluator_personas",
    "improvements",
    "resume_from_log",
    "checkpoint_enabled",
    "checkpoint_mode",
    "checkpoint_guidance",
    "checkpoint_gated_patterns",
    "standalone_checkpoint",
    "standalone_checkpoint_enabled",
    "standalone_checkpoint_team_config",
    "standalone_checkpoint_mode",
    "standalone_checkpoint_single",
    "standalone_checkpoint_include_workspace_context",
    "web_review",
    "skip_redundant_scaffolding",
];

pub const TIMEOUTS: &[&str] = &[
    "orchestrator_timeout_seconds",
    "initial_round_timeout_seconds",
    "subsequent_round_timeout_seconds",
    "round_timeout_grace_seconds",
];
pub const TIMEOUTS_UNSUPPORTED: &[&str] = &["agent_timeout_seconds"];

pub const UI: &[&str] = &["display_type", "type", "logging_enabled"];
pub const UI_UNSUPPORTED: &[&str] = &[
    "theme",
    "display_kwargs",
    "automation_mode",
    "skip_agent_selector",
    "use_orchestrator_for_single_agent",
];

pub const DISPLAY_TYPES: [&str; 7] = [
    "textual_terminal",
    "rich_terminal",
    "simple",
    "terminal",
    "silent",
    "none",
    "plain",
];
