//! The agent-CLI backends' keys as MassGen's configs write them, their errors, and the
//! refusal of the agent programs massgen does not run.

use crate::config::agent_cli::{AgentCliSettings, PermissionMode, Thinking};
use crate::config::{BackendConfig, Env, Loaded, from_text};

fn loaded(backend: &str) -> Loaded {
    let yaml = format!("agent:\n  id: a\n  backend:\n{backend}");
    from_text(&yaml, "t.yaml", &Env::default()).unwrap()
}

fn backend(backend: &str) -> BackendConfig {
    loaded(backend).config.agents[0].backend.clone()
}

fn settings(backend_yaml: &str) -> AgentCliSettings {
    backend(backend_yaml).agent_cli.unwrap()
}

fn error(backend: &str) -> String {
    let yaml = format!("agent:\n  id: a\n  backend:\n{backend}");
    from_text(&yaml, "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

fn warnings(backend: &str) -> Vec<String> {
    loaded(backend)
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn the_three_clis_load_with_the_cli_picking_the_model() {
    for kind in ["claude_code", "codex", "gemini_cli"] {
        let config = backend(&format!("    type: {kind}\n    cwd: workspace\n"));
        assert_eq!(config.kind.name(), kind);
        assert_eq!(config.model, "default");
        assert_eq!(config.tools.cwd.as_deref(), Some("workspace"));
        assert_eq!(config.agent_cli, Some(AgentCliSettings::default()));
    }
    assert_eq!(
        backend("    type: codex\n    model: gpt-5-codex\n").model,
        "gpt-5-codex"
    );
    assert_eq!(backend("    type: claude\n    model: m\n").agent_cli, None);
}

#[test]
fn claude_codes_keys_are_read() {
    let config = backend(
        "    type: claude_code\n    cwd: ws\n    permission_mode: bypassPermissions\n    \
         allowed_tools: [Read, Write, Bash]\n    disallowed_tools: [\"Bash(rm*)\"]\n    \
         exclude_tools: [post_search]\n    system_prompt: own\n    append_system_prompt: more\n    \
         enable_web_search: true\n    max_thinking_tokens: 8000\n    api_key: sk-test\n    \
         exclude_file_operation_mcps: true\n    enable_mcp_command_line: true\n",
    );
    let cli = config.agent_cli.clone().unwrap();
    assert_eq!(cli.permission_mode, Some(PermissionMode::BypassPermissions));
    assert_eq!(
        cli.allowed_tools.as_deref(),
        Some(&["Read".to_string(), "Write".into(), "Bash".into()][..])
    );
    assert_eq!(cli.disallowed_tools, ["Bash(rm*)"]);
    assert_eq!(cli.instructions(), Some("own"));
    assert_eq!(cli.append_system_prompt.as_deref(), Some("more"));
    assert!(cli.web_search);
    assert_eq!(
        cli.reasoning.thinking,
        Some(Thinking::Enabled {
            budget_tokens: 8000
        })
    );
    // The shared keys keep their places; the CLI's tool list filters no MCP tools and its
    // web search is no provider server tool.
    assert_eq!(config.tools.exclude_tools, ["post_search"]);
    assert_eq!(config.tools.allowed_tools, None);
    assert!(config.tools.exclude_file_operations);
    assert!(config.tools.command_line.is_some());
    assert!(!config.server_tools.web_search);
    assert!(config.api_key.is_some());
}

#[test]
fn claude_codes_reasoning_is_thinking_and_effort() {
    let cli = settings(
        "    type: claude_code\n    reasoning: {type: enabled, budget_tokens: 4000, effort: high}\n    \
         max_thinking_tokens: 9\n",
    );
    assert_eq!(
        cli.reasoning.thinking,
        Some(Thinking::Enabled {
            budget_tokens: 4000
        })
    );
    assert_eq!(cli.reasoning.effort.as_deref(), Some("high"));
    let cli = settings("    type: claude_code\n    reasoning: {type: enabled}\n");
    assert_eq!(
        cli.reasoning.thinking,
        Some(Thinking::Enabled {
            budget_tokens: 32_000
        })
    );
    let cli = settings("    type: claude_code\n    reasoning: {effort: low}\n");
    assert_eq!(cli.reasoning.thinking, Some(Thinking::Adaptive));
    let cli = settings("    type: claude_code\n    reasoning: {type: disabled}\n");
    assert_eq!(cli.reasoning.thinking, Some(Thinking::Disabled));
}

#[test]
fn codexs_reasoning_is_effort_and_summary() {
    let cli = settings("    type: codex\n    reasoning: {effort: xhigh, summary: auto}\n");
    assert_eq!(cli.reasoning.effort.as_deref(), Some("xhigh"));
    assert_eq!(cli.reasoning.summary.as_deref(), Some("auto"));
    assert_eq!(cli.reasoning.thinking, None);
    let cli = settings(
        "    type: codex\n    reasoning: {effort: low}\n    model_reasoning_effort: high\n",
    );
    assert_eq!(cli.reasoning.effort.as_deref(), Some("high"));
}

#[test]
fn bad_values_are_refused_at_their_place_with_help() {
    let cases = [
        (
            "    type: claude_code\n    permission_mode: acceptedits\n",
            "t.yaml:5:22: `agent.backend.permission_mode` cannot be \"acceptedits\"",
            "did you mean \"acceptEdits\"? Valid values: default, acceptEdits, \
             bypassPermissions, plan, dontAsk",
        ),
        (
            "    type: codex\n    reasoning: {effort: extreme}\n",
            "`agent.backend.reasoning.effort` cannot be \"extreme\"",
            "valid values: minimal, low, medium, high, xhigh",
        ),
        (
            "    type: claude_code\n    reasoning: {effort: xhigh}\n",
            "`agent.backend.reasoning.effort` cannot be \"xhigh\"",
            "low, medium, high, max",
        ),
        (
            "    type: codex\n    reasoning: {summary: short}\n",
            "`agent.backend.reasoning.summary` cannot be \"short\"",
            "auto, concise, detailed, none",
        ),
        (
            "    type: claude_code\n    reasoning: {type: sometimes}\n",
            "`agent.backend.reasoning.type` cannot be \"sometimes\"",
            "adaptive, enabled, disabled",
        ),
        (
            "    type: codex\n    reasoning: high\n",
            "`agent.backend.reasoning`",
            "reasoning: {effort: high, summary: auto}",
        ),
        (
            "    type: codex\n    reasoning: {type: enabled}\n",
            "`agent.backend.reasoning.type` is not a reasoning setting",
            "settings here: effort, summary",
        ),
        (
            "    type: claude_code\n    max_thinking_tokens: lots\n",
            "`agent.backend.max_thinking_tokens`",
            "help: ",
        ),
        (
            "    type: claude_code\n    disallowed_tools: {a: 1}\n",
            "`agent.backend.disallowed_tools`",
            "help: ",
        ),
        (
            "    type: gemini_cli\n    allowed_tools: 3\n",
            "`agent.backend.allowed_tools`",
            "help: ",
        ),
        (
            "    type: codex\n    enable_code_execution: true\n",
            "`agent.backend.enable_code_execution: true` asks for the provider's code execution",
            "help: ",
        ),
    ];
    for (yaml, message, help) in cases {
        let error = error(yaml);
        assert!(error.contains(message), "{yaml}: {error}");
        assert!(error.contains(help), "{yaml}: {error}");
        assert!(error.starts_with("t.yaml:"), "{yaml}: {error}");
    }
}

#[test]
fn a_key_the_cli_does_not_take_is_noted_with_what_massgen_does() {
    // Claude Code's keys on Codex.
    let noted =
        warnings("    type: codex\n    permission_mode: plan\n    max_thinking_tokens: 5\n");
    assert!(
        noted[0].contains(
            "ignored: agent.backend.permission_mode — MassGen passes it to the \
                           Claude Code CLI only"
        ),
        "{noted:?}"
    );
    assert_eq!(noted.len(), 2, "{noted:?}");
    // A model API's request option.
    let noted = warnings("    type: gemini_cli\n    reasoning: {effort: high}\n    top_p: 0.5\n");
    assert_eq!(noted.len(), 2, "{noted:?}");
    assert!(
        noted
            .iter()
            .all(|note| note.contains("a request option of model APIs")),
        "{noted:?}"
    );
    // A typo.
    let noted = warnings("    type: claude_code\n    permision_mode: plan\n");
    assert!(
        noted[0].contains(
            "unknown key `agent.backend.permision_mode`; did you mean `permission_mode`?"
        ),
        "{noted:?}"
    );
    // A MassGen tool key massgen does not act on, as on every backend.
    let noted = warnings("    type: codex\n    custom_tools_path: tools\n");
    assert!(noted[0].contains("copy this directory"), "{noted:?}");
    // The keys a CLI takes are counted honoured.
    let keys = loaded(
        "    type: claude_code\n    cwd: ws\n    permission_mode: plan\n    system_prompt: s\n",
    )
    .keys;
    assert!(keys.ignored.is_empty(), "{keys:?}");
}

#[test]
fn system_prompt_on_an_api_backend_is_still_noted() {
    let noted = warnings("    type: claude\n    model: m\n    append_system_prompt: x\n");
    assert!(
        noted[0].contains("ignored: agent.backend.append_system_prompt — MassGen's validator"),
        "{noted:?}"
    );
}

#[test]
fn agent_programs_massgen_does_not_run_are_refused_with_their_reason() {
    for (kind, reason) in [
        ("copilot", "GitHub's own Copilot service"),
        ("antigravity_cli", "Google's own Antigravity service"),
        (
            "ag2",
            "AG2 agents are Python objects of the autogen framework",
        ),
    ] {
        let error = error(&format!("    type: {kind}\n"));
        assert!(
            error.starts_with(&format!(
                "t.yaml:4:11: backend type `{kind}` is not supported by massgen ("
            )) && error.contains(reason),
            "{error}"
        );
        let help = error
            .split("help: supported types: ")
            .nth(1)
            .unwrap_or_default();
        for supported in ["claude_code", "codex", "gemini_cli", "openai", "claude"] {
            assert!(
                help.split(", ").any(|name| name.trim() == supported),
                "{error}"
            );
        }
        assert!(!help.contains("ag2"), "{error}");
    }
}
