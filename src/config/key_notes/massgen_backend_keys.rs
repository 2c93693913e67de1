//! Every backend key MassGen 0.1.97 documents by reading it or keeping it out of its
//! requests, loaded one at a time on six backend types: each is acted on, sent, or noted
//! with what MassGen would have done, never an "unknown key" or a bare "not supported yet".

use crate::config::keys;
use crate::config::{Env, from_text};

/// Every backend key MassGen 0.1.97's backends read or keep out of the request: its
/// `BASE_EXCLUDED_CONFIG_PARAMS` (massgen/backend/_excluded_params.py), `upload_files`,
/// each API handler's `get_excluded_params()` (Responses, Chat Completions, Claude,
/// Gemini) and the inference servers' and Azure's exclusions, the validator's boolean
/// fields, and the `output_schema`, `hooks` and `organization` it reads. `type`, `model`
/// and the Responses fields massgen fills in itself are left out.
const BACKEND: &[&str] = &[
    "agent_id",
    "agent_temporary_workspace",
    "agent_temporary_workspace_parent",
    "allow_midstream_peer_updates_before_checklist_submit",
    "allowed_tools",
    "api_key",
    "api_version",
    "audio_generation_backend",
    "audio_generation_model",
    "auto_discover_custom_tools",
    "azure_endpoint",
    "base_url",
    "bootstrap_max_per_agent_per_round",
    "bootstrap_max_total",
    "chat_template_kwargs",
    "checklist_first_answer",
    "checklist_require_gap_report",
    "checkpoint_enabled",
    "checkpoint_gated_patterns",
    "checkpoint_guidance",
    "checkpoint_mode",
    "command_line_allowed_commands",
    "command_line_blocked_commands",
    "command_line_docker_cpu_limit",
    "command_line_docker_credentials",
    "command_line_docker_enable_sudo",
    "command_line_docker_image",
    "command_line_docker_memory_limit",
    "command_line_docker_network_mode",
    "command_line_docker_packages",
    "command_line_execution_mode",
    "command_line_srt_allow_read",
    "command_line_srt_allow_unix_sockets",
    "command_line_srt_deny_read",
    "command_line_srt_network_allowed_domains",
    "command_line_srt_read_mode",
    "concurrent_tool_execution",
    "context_paths",
    "context_write_access_enabled",
    "coordination_mode",
    "criteria_mode",
    "custom_tools",
    "custom_tools_path",
    "cwd",
    "debug_delay_after_n_tools",
    "debug_delay_seconds",
    "defer_peer_updates_until_restart",
    "direct_mcp_servers",
    "disable_final_only_round_capture_fallback",
    "drift_conflict_policy",
    "enable_audio_generation",
    "enable_code_based_tools",
    "enable_code_execution",
    "enable_code_interpreter",
    "enable_execution_trace_analyzer",
    "enable_file_generation",
    "enable_image_generation",
    "enable_mcp_command_line",
    "enable_multimodal_tools",
    "enable_nlip",
    "enable_novelty_on_iteration",
    "enable_programmatic_flow",
    "enable_quality_rethink_on_iteration",
    "enable_rate_limit",
    "enable_strict_tool_use",
    "enable_tool_search",
    "enable_video_generation",
    "enable_web_search",
    "enable_x_search",
    "enforce_read_before_delete",
    "engine",
    "exclude_custom_tools",
    "exclude_file_operation_mcps",
    "exclude_tools",
    "fairness_enabled",
    "fairness_lead_cap_answers",
    "filesystem_session_id",
    "final_answer_strategy",
    "function_calling_mode",
    "gap_report_mode",
    "hooks",
    "image_generation_backend",
    "image_generation_model",
    "improvements",
    "include_thoughts",
    "instance_id",
    "learning_capture_mode",
    "main_agent",
    "max_checklist_calls_per_round",
    "max_concurrent_tools",
    "max_midstream_injections_per_round",
    "max_results",
    "mcp_sdk_auto",
    "mcp_servers",
    "multimodal_config",
    "nlip",
    "nlip_config",
    "novelty_injection",
    "orchestrator_managed_round_evaluator",
    "organization",
    "output_schema",
    "permissions",
    "plan_depth",
    "plan_target_chunks",
    "plan_target_steps",
    "plan_thoroughness",
    "presenter_agent",
    "reasoning",
    "repetition_penalty",
    "round_evaluator_before_checklist",
    "round_evaluator_refine",
    "round_evaluator_skip_synthesis",
    "round_evaluator_transformation_pressure",
    "search_context_size",
    "search_prompt",
    "separate_reasoning",
    "session_id",
    "session_storage_base",
    "shared_tools_directory",
    "standalone_checkpoint_enabled",
    "standalone_checkpoint_include_workspace_context",
    "standalone_checkpoint_mode",
    "standalone_checkpoint_single",
    "standalone_checkpoint_team_config",
    "subagent_types",
    "subtask",
    "thinking",
    "thinking_config",
    "tool_search_variant",
    "top_k",
    "upload_files",
    "use_mcpwrapped_for_tool_filtering",
    "use_multi_mcp",
    "use_no_roots_wrapper",
    "use_two_tier_workspace",
    "video_generation_backend",
    "video_generation_model",
    "vote_only",
    "voting_sensitivity",
    "voting_threshold",
    "websocket_mode",
    "write_mode",
];

/// Keys massgen reads for every backend type (it acts on them or refuses a bad value).
fn read_by_massgen(key: &str) -> bool {
    keys::BACKEND_COMMON.contains(&key)
        || keys::BACKEND_TOOLS.contains(&key)
        || crate::config::server_tools::KEYS.contains(&key)
}

/// A value the key's own reader takes, where massgen reads it.
fn sample(key: &str) -> &'static str {
    match key {
        "organization" => "org-massgen",
        "engine" => "exa",
        "max_results" => "3",
        "search_prompt" => "'Sources:'",
        "search_context_size" => "low",
        "enable_strict_tool_use" => "true",
        _ => "{}",
    }
}

#[test]
fn every_backend_key_massgen_documents_is_acted_on_or_explained() {
    let backends = [
        "type: grok, model: grok-4",
        "type: openai, model: gpt-5",
        "type: claude, model: claude-sonnet-4-5",
        "type: gemini, model: gemini-2.5-flash",
        "type: openrouter, model: openai/gpt-4o",
        "type: vllm, model: m",
    ];
    let mut bare = Vec::new();
    for backend in backends {
        for key in BACKEND.iter().filter(|key| !read_by_massgen(key)) {
            let text = format!(
                "agents:\n  - id: a\n    backend: {{{backend}, {key}: {}}}\n",
                sample(key)
            );
            let loaded = match from_text(&text, "b.yaml", &Env::default()) {
                Ok(loaded) => loaded,
                Err(error) => panic!("{backend}, {key}: does not load: {error}"),
            };
            let said: Vec<&str> = loaded
                .warnings
                .iter()
                .map(|warning| warning.message.as_str())
                .filter(|message| message.contains(&format!("backend.{key} ")))
                .collect();
            let config = &loaded.config.agents[0].backend;
            let taken = config.passthrough.contains_key(*key)
                || config.search_options.contains_key(*key)
                || (*key == "organization" && config.organization.is_some())
                || (*key == "enable_strict_tool_use" && config.tools.strict_tools.enabled);
            let vague = said.iter().any(|message| {
                message.contains("unknown key") || message.contains("not supported yet")
            });
            if vague || (said.is_empty() && !taken) {
                bare.push(format!("{backend}: {key}: {said:?}"));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "backend keys MassGen 0.1.97 documents, neither acted on nor explained:\n{}",
        bare.join("\n")
    );
}
