//! The command plan Claude Code is started with: its arguments, environment and files.

use std::path::Path;

use crate::backend::agent_cli::claude_code::{ClaudeCode, MCP_CONFIG_FILE, SYSTEM_PROMPT_FILE};
use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};

fn launch<'a>(
    options: &'a CliOptions,
    bridge: &'a BridgeAddress,
    resume: Option<&'a str>,
) -> Launch<'a> {
    Launch {
        model: Some("claude-sonnet-4-5"),
        cwd: Path::new("/work/agent_a"),
        home: Path::new("/state/agent_a"),
        system_prompt: "You are agent_a.",
        prompt: "Solve it.",
        resume,
        bridge,
        options,
        base_url: Some("http://127.0.0.1:9"),
    }
}

fn files() -> (String, String) {
    (
        format!("/state/agent_a/{MCP_CONFIG_FILE}"),
        format!("/state/agent_a/{SYSTEM_PROMPT_FILE}"),
    )
}

fn bridge() -> BridgeAddress {
    BridgeAddress {
        url: "http://127.0.0.1:7/mcp".into(),
        token: "t0k".into(),
    }
}

/// The values after `flag`, up to the next flag.
fn values<'a>(args: &'a [String], flag: &str) -> Vec<&'a str> {
    args.iter()
        .skip_while(|arg| *arg != flag)
        .skip(1)
        .take_while(|arg| !arg.starts_with("--"))
        .map(String::as_str)
        .collect()
}

#[test]
fn a_first_start_streams_json_reads_the_prompt_from_stdin_and_names_the_bridge() {
    let options = CliOptions::default();
    let bridge = bridge();
    let plan = ClaudeCode.command(&launch(&options, &bridge, None));
    let (mcp, system) = files();
    assert_eq!(
        &plan.args[..5],
        [
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages"
        ]
    );
    assert_eq!(values(&plan.args, "--mcp-config"), [mcp.as_str()]);
    assert_eq!(
        values(&plan.args, "--system-prompt-file"),
        [system.as_str()]
    );
    assert_eq!(values(&plan.args, "--setting-sources"), [""]);
    assert_eq!(values(&plan.args, "--system-prompt-snapshot"), ["off"]);
    assert_eq!(values(&plan.args, "--model"), ["claude-sonnet-4-5"]);
    assert_eq!(values(&plan.args, "--permission-mode"), ["acceptEdits"]);
    assert_eq!(
        values(&plan.args, "--tools"),
        ["Bash,Edit,Read,Write,Glob,Grep,NotebookEdit"]
    );
    assert_eq!(
        values(&plan.args, "--allowedTools"),
        [
            "Bash",
            "Edit",
            "Read",
            "Write",
            "Glob",
            "Grep",
            "NotebookEdit",
            "mcp__massgen"
        ]
    );
    assert!(
        !plan
            .args
            .iter()
            .any(|arg| arg == "--resume" || arg == "--disallowedTools")
    );
    assert!(
        !plan
            .args
            .iter()
            .any(|arg| arg.contains("Solve it") || arg.contains("t0k"))
    );
    assert_eq!(plan.stdin.as_deref(), Some("Solve it."));
    let config: serde_json::Value = serde_json::from_str(&plan.files[0].1).unwrap_or_default();
    assert_eq!(plan.files[0].0, Path::new(&mcp));
    assert_eq!(
        config,
        serde_json::json!({"mcpServers": {"massgen": {
            "type": "http",
            "url": "http://127.0.0.1:7/mcp",
            "headers": {"Authorization": "Bearer t0k"},
        }}})
    );
    assert_eq!(
        plan.files[1],
        (
            Path::new(&system).to_path_buf(),
            "You are agent_a.".to_owned()
        )
    );
}

#[test]
fn the_state_stays_in_the_agents_home_and_nothing_calls_home() {
    let options = CliOptions::default();
    let bridge = bridge();
    let plan = ClaudeCode.command(&launch(&options, &bridge, None));
    let env = |name: &str| {
        plan.env
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(env("CLAUDE_CONFIG_DIR"), Some("/state/agent_a"));
    assert_eq!(env("ANTHROPIC_BASE_URL"), Some("http://127.0.0.1:9"));
    assert_eq!(env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), Some("1"));
    assert_eq!(env("DISABLE_TELEMETRY"), Some("1"));
    assert_eq!(env("DISABLE_AUTOUPDATER"), Some("1"));
    assert_eq!(env("ENABLE_TOOL_SEARCH"), Some("false"));
    assert_eq!(env("CLAUDECODE"), Some(""));
    assert_eq!(env("MAX_THINKING_TOKENS"), None);
}

#[test]
fn a_resumed_start_names_the_session() {
    let options = CliOptions::default();
    let bridge = bridge();
    let plan = ClaudeCode.command(&launch(&options, &bridge, Some("3adb4d07")));
    assert_eq!(values(&plan.args, "--resume"), ["3adb4d07"]);
}

#[test]
fn the_configs_tool_rules_thinking_effort_and_web_search_reach_the_cli() {
    let options = CliOptions {
        permission_mode: Some("default".into()),
        allowed_tools: vec!["Read".into(), "Bash(git *)".into()],
        disallowed_tools: vec!["Write".into(), "Bash(rm*)".into()],
        max_thinking_tokens: Some(8000),
        reasoning_effort: Some("minimal".into()),
        web_search: true,
    };
    let bridge = bridge();
    let plan = ClaudeCode.command(&launch(&options, &bridge, None));
    assert_eq!(values(&plan.args, "--permission-mode"), ["default"]);
    assert_eq!(
        values(&plan.args, "--allowedTools"),
        ["Read", "Bash(git *)", "mcp__massgen"]
    );
    assert_eq!(
        values(&plan.args, "--disallowedTools"),
        ["Write", "Bash(rm*)"]
    );
    assert_eq!(
        values(&plan.args, "--tools"),
        ["Bash,Edit,Read,Write,Glob,Grep,NotebookEdit,WebSearch,WebFetch"]
    );
    assert_eq!(values(&plan.args, "--effort"), ["low"]);
    assert!(
        plan.env
            .contains(&("MAX_THINKING_TOKENS".into(), "8000".into()))
    );
}

#[test]
fn without_a_model_or_base_url_the_cli_picks_its_own() {
    let options = CliOptions::default();
    let bridge = bridge();
    let plan = ClaudeCode.command(&Launch {
        model: None,
        base_url: None,
        ..launch(&options, &bridge, None)
    });
    assert!(!plan.args.iter().any(|arg| arg == "--model"));
    assert!(
        !plan
            .env
            .iter()
            .any(|(name, _)| name == "ANTHROPIC_BASE_URL")
    );
}

#[test]
fn a_start_without_a_bridge_names_no_mcp_server() {
    let options = CliOptions::default();
    let bridge = BridgeAddress {
        url: String::new(),
        token: String::new(),
    };
    let plan = ClaudeCode.command(&launch(&options, &bridge, None));
    let (mcp, _) = files();
    let config = plan
        .files
        .iter()
        .find(|(path, _)| path.to_string_lossy() == mcp)
        .map(|(_, text)| text.clone())
        .unwrap();
    assert_eq!(config, r#"{"mcpServers":{}}"#);
}
