//! Notes for MassGen's own keys found in a `backend:` block (its
//! `BASE_EXCLUDED_CONFIG_PARAMS` and API handlers' exclusions: keys MassGen reads itself
//! and keeps out of the request). A coordination or orchestrator setting written here gets
//! the note of its real home, saying MassGen reads it there.

use std::borrow::Cow;

use super::orchestrator;
use crate::config::keys;

pub(super) fn backend(key: &str) -> Option<Cow<'static, str>> {
    if let Some(note) = own(key) {
        return Some(Cow::Borrowed(note));
    }
    let (home, note) = if keys::ORCHESTRATOR_UNSUPPORTED.contains(&key) {
        ("orchestrator", orchestrator::orchestrator(key)?)
    } else if keys::COORDINATION_UNSUPPORTED.contains(&key) {
        (
            "orchestrator.coordination",
            orchestrator::coordination(key)?,
        )
    } else {
        return None;
    };
    Some(Cow::Owned(format!(
        "MassGen reads this setting under `{home}`, not in a backend (here it only keeps it \
         out of the request); under `{home}`: {note}"
    )))
}

fn own(key: &str) -> Option<&'static str> {
    Some(match key {
        "output_schema" => {
            "MassGen would ask Claude (Sonnet 4.5 and Opus 4.1, behind the structured-outputs \
             beta) for answers that match this JSON schema; massgen does not constrain answers \
             to a schema (send Anthropic's `output_format` under `extra_body` to do so)"
        }
        "use_multi_mcp" | "mcp_sdk_auto" => {
            "MassGen 0.1.97 only keeps it out of Gemini's request and reads it nowhere else; \
             massgen ignores it too (its MCP servers come from `mcp_servers`)"
        }
        "hooks" => {
            "MassGen would run these PreToolUse / PostToolUse hooks (Python functions or \
             commands) around each of this agent's tool calls; massgen runs no hooks (it checks \
             tool calls against its path permissions and command lists)"
        }
        "vote_only" => {
            "MassGen sets it itself on an agent that has reached its answer limit, which may \
             then only vote; massgen does the same from `max_new_answers_per_agent`, so written \
             here it changes nothing"
        }
        "plan_thoroughness" => {
            "MassGen's `massgen plan` command sets it (standard or thorough) for its planner and \
             keeps it out of the request; massgen sizes task plans by \
             `orchestrator.coordination.plan_depth`"
        }
        "fairness_enabled"
        | "fairness_lead_cap_answers"
        | "max_midstream_injections_per_round"
        | "defer_peer_updates_until_restart" => {
            "MassGen reads this setting under `orchestrator`, not in a backend (here it only \
             keeps it out of the request); under `orchestrator`: massgen acts on it as MassGen \
             does (the fairness lead cap and how peers' answers reach a running agent), so \
             move it there"
        }
        "novelty_injection" => {
            "MassGen reads this setting under `orchestrator.coordination`, not in a backend \
             (here it only keeps it out of the request); massgen acts on \
             `orchestrator.coordination.novelty_injection`: move it there"
        }
        "criteria_mode" | "bootstrap_max_per_agent_per_round" | "bootstrap_max_total" => {
            "MassGen reads this setting under `orchestrator.coordination`, not in a backend \
             (here it only keeps it out of the request); massgen acts on it there (agents \
             propose checklist criteria with `submit_checklist`): move it there"
        }
        "plan_depth" => {
            "MassGen reads the plan depth under `orchestrator.coordination`, not in a backend; \
             massgen acts on `orchestrator.coordination.plan_depth`: move it there"
        }
        "subtask" => {
            "MassGen reads an agent's subtask from `agents[i].subtask` in `coordination_mode: \
             decomposition`, not in a backend (here it only keeps it out of the request); \
             massgen acts on `agents[i].subtask`: move it there"
        }
        "coordination_mode" | "presenter_agent" => {
            "MassGen reads this setting under `orchestrator`, not in a backend (here it only \
             keeps it out of the request); massgen acts on it under `orchestrator` \
             (decomposition mode and who presents), so move it there"
        }
        "instance_id" => {
            "MassGen sets it itself to name the Docker containers of parallel runs; massgen \
             runs no Docker containers"
        }
        "agent_id" | "session_id" | "filesystem_session_id" | "session_storage_base" => {
            "MassGen sets it itself when the run starts (the agent's id, its session, where \
             sessions are kept), replacing what the config says; massgen ignores it too"
        }
        "agent_temporary_workspace" | "agent_temporary_workspace_parent" => {
            "MassGen copies `orchestrator.agent_temporary_workspace` here itself, where peers' \
             workspaces are shown to the agent; massgen reads \
             `orchestrator.agent_temporary_workspace`: set it there"
        }
        "context_paths" => {
            "MassGen would grant this agent these context paths (it copies \
             `orchestrator.context_paths` here itself); massgen grants context paths from \
             `orchestrator.context_paths` only: move them there"
        }
        "context_write_access_enabled" => {
            "MassGen sets it itself to give the presenting agent write access to context paths; \
             massgen grants that write access in the final presentation on its own"
        }
        "enforce_read_before_delete" => {
            "MassGen would refuse to let this agent delete a file it has not read first; \
             massgen's delete tools do not check that"
        }
        "use_mcpwrapped_for_tool_filtering" | "use_no_roots_wrapper" => {
            "MassGen would run MCP servers behind a wrapper process (mcpwrapped, a no-roots \
             proxy) to filter their tools; massgen filters MCP tools itself with \
             `allowed_tools` and `exclude_tools`"
        }
        "enable_nlip" | "nlip" | "nlip_config" => {
            "MassGen would route this agent's tool calls through its NLIP router; massgen calls \
             tools directly"
        }
        "voting_threshold"
        | "max_checklist_calls_per_round"
        | "checklist_first_answer"
        | "checklist_require_gap_report"
        | "gap_report_mode"
        | "allow_midstream_peer_updates_before_checklist_submit" => {
            "MassGen reads this checklist-gated voting setting under `orchestrator`, not in a \
             backend (here it only keeps it out of the request); massgen acts on it under \
             `orchestrator`: move it there"
        }
        "voting_sensitivity" => {
            "MassGen reads an agent's voting sensitivity from `agents[i].voting_sensitivity` \
             and only keeps this copy out of the request; massgen acts on \
             `agents[i].voting_sensitivity`: move it there"
        }
        "final_answer_strategy" => {
            "MassGen reads it under `orchestrator`, not in a backend (here it only keeps it out \
             of the request); massgen acts on `orchestrator.final_answer_strategy`: move it there"
        }
        "azure_endpoint" => {
            "MassGen's `azure_openai` backend reads its endpoint from it; massgen does too, on \
             `azure_openai` only, so here it changes nothing"
        }
        "main_agent" => {
            "MassGen marks the agent that calls the team at checkpoints with it; massgen has \
             no checkpoints"
        }
        _ => return None,
    })
}
