//! Notes for the top level, an agent, its backend and MCP servers, and `ui`.

pub(super) fn top(key: &str) -> Option<&'static str> {
    Some(match key {
        "memory" => {
            "MassGen would give every agent a persistent vector memory (mem0 with a Qdrant store) \
             recalled across turns; massgen keeps no memory beyond the session's conversation"
        }
        "filesystem_memory" => {
            "MassGen would keep agent memories as Markdown files injected into system prompts; \
             massgen keeps no memory files"
        }
        "rate_limits" => {
            "MassGen would throttle model calls to the listed requests and tokens per minute; \
             massgen does not throttle, it retries rate-limited calls (backend `max_retries`)"
        }
        "nlip" => {
            "MassGen would route tool calls through its NLIP (natural-language interaction \
             protocol) router; massgen calls tools directly"
        }
        "timeout" => {
            "MassGen 0.1.97 does not read a top-level `timeout` block either; massgen (like \
             MassGen) reads `timeout_settings.orchestrator_timeout_seconds`"
        }
        "task" => {
            "MassGen 0.1.97 does not read a `task` from the config either; massgen takes the \
             question from the command line or the prompt"
        }
        _ => return None,
    })
}

pub(super) fn agent(key: &str) -> Option<&'static str> {
    Some(match key {
        "memory" => {
            "MassGen would give this agent its own persistent memory settings; massgen keeps no \
             memory beyond the session's conversation"
        }
        "enable_nlip" | "nlip" => {
            "MassGen would route this agent's tool calls through its NLIP router; massgen calls \
             tools directly"
        }
        "subagent_agents" => {
            "MassGen would use these agents for the subagents this agent spawns; massgen has no \
             subagents"
        }
        "append_system_prompt" => {
            "MassGen reads it inside `backend:` only (as the agent's instructions) and ignores \
             it written on the agent; massgen does the same: put the text in `system_message`"
        }
        _ => return None,
    })
}

pub(super) fn backend(key: &str) -> Option<&'static str> {
    if key.starts_with("command_line_") {
        return Some(
            "MassGen would use it to configure command execution; massgen reads only the \
             command_line_ keys listed in its docs",
        );
    }
    Some(match key {
        "enable_image_generation" | "enable_audio_generation" | "enable_video_generation" => {
            "MassGen 0.1.97 does nothing with it: the workspace tools it once turned on \
             (`generate_and_store_image_…`, `…_audio_…`) are gone from its workspace tools \
             server; massgen adds none either (generate media with a custom tool)"
        }
        "enable_file_generation" => {
            "MassGen would add steps for its `text_to_file_generation` tool to the final \
             presentation's prompt; massgen's presentation prompt has none"
        }
        "disallowed_tools" => {
            "MassGen passes it to the Claude Code CLI only; massgen does too, so on another \
             backend type it changes nothing (filter MCP tools with `exclude_tools`)"
        }
        "custom_tools_path" => {
            "MassGen would copy this directory of tools into the workspace for its code-based \
             tools; massgen offers Python tools listed under `custom_tools`"
        }
        "exclude_custom_tools" => {
            "MassGen would hide these of its built-in custom tools; massgen has none to hide"
        }
        "permission_mode" | "max_thinking_tokens" => {
            "MassGen passes it to the Claude Code CLI only; massgen does too, so on another \
             backend type it changes nothing"
        }
        "system_prompt" | "append_system_prompt" => {
            "MassGen's validator refuses it in a backend (\"use `system_message`\"); its agent \
             CLIs read it as the agent's instructions, and so does massgen for `claude_code`, \
             `codex` and `gemini_cli` only: on this backend type put the text in the agent's \
             `system_message`"
        }
        "use_default_prompt" => {
            "MassGen would start Claude Code from the CLI's own coding system prompt and append \
             its instructions; massgen gives the CLI massgen's instructions only"
        }
        "agent_config" => {
            "MassGen passes it to the AG2 framework backend; massgen runs no AG2 agents"
        }
        "api_version" => {
            "MassGen would send it as Azure's `api-version`; massgen reads it for \
             `azure_openai` only"
        }
        "enable_rate_limit" => {
            "MassGen would throttle this agent to its rate-limits file; massgen does not \
             throttle, it retries rate-limited calls (`max_retries`)"
        }
        "websocket_mode" => {
            "MassGen would talk to the OpenAI Responses API over a WebSocket; massgen streams \
             over HTTP (server-sent events)"
        }
        "enable_tool_search" | "tool_search_variant" => {
            "MassGen would let Claude search a deferred tool list instead of loading every \
             tool; massgen sends every tool with each request"
        }
        "enable_strict_tool_use" => {
            "MassGen reads it for Claude backends only (strict tool schemas); massgen does the \
             same, so on this backend it changes nothing"
        }
        "enable_programmatic_flow" => {
            "MassGen would let Claude call tools from code it runs in Anthropic's code \
             execution sandbox; massgen runs each tool call the model makes"
        }
        _ => return None,
    })
}

pub(super) fn mcp_server(key: &str) -> Option<&'static str> {
    Some(match key {
        "http_read_timeout" => {
            "MassGen would wait this long for an HTTP MCP server's streamed reply; massgen uses \
             the server's `timeout`"
        }
        "defer_loading" => {
            "MassGen would let Claude load this server's tools on demand (tool search); massgen \
             lists every tool up front"
        }
        _ => return None,
    })
}

pub(super) fn ui(key: &str) -> Option<&'static str> {
    Some(match key {
        "theme" => "MassGen would colour its Textual UI with this theme; massgen has one theme",
        "display_kwargs" => {
            "MassGen would pass these options to its display; massgen's displays have none"
        }
        "automation_mode" => {
            "MassGen would print only machine-readable status lines; massgen does that with the \
             `--automation` flag"
        }
        "skip_agent_selector" => {
            "MassGen would skip its agent picker after a turn; massgen has no agent picker"
        }
        "use_orchestrator_for_single_agent" => {
            "MassGen would choose whether a single agent goes through the orchestrator; massgen \
             always runs it through the orchestrator (MassGen's default)"
        }
        _ => return None,
    })
}
