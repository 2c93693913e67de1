//! The Claude Code dialect against stdout captured from the real CLI (2.1.332, in
//! `tests/fixtures/claude_code/`) and the command plans it makes.

use std::path::Path;

use crate::backend::agent_cli::claude_code::{ClaudeCode, MCP_CONFIG_FILE, SYSTEM_PROMPT_FILE};
use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use crate::backend::agent_cli::event::CliEvent;
use crate::protocol::Usage;

const FULL_TURN: &str = include_str!("../../../../tests/fixtures/claude_code/full_turn.jsonl");
const RESUMED: &str = include_str!("../../../../tests/fixtures/claude_code/resumed.jsonl");
const API_ERROR: &str = include_str!("../../../../tests/fixtures/claude_code/api_error.jsonl");
const NOT_LOGGED_IN: &str =
    include_str!("../../../../tests/fixtures/claude_code/not_logged_in.jsonl");
const RESUME_UNKNOWN: &str =
    include_str!("../../../../tests/fixtures/claude_code/resume_unknown.jsonl");
const BRIDGE_FAILED: &str =
    include_str!("../../../../tests/fixtures/claude_code/bridge_failed.jsonl");
const PERMISSION_DENIED: &str =
    include_str!("../../../../tests/fixtures/claude_code/permission_denied.jsonl");

fn parse(stdout: &str) -> Vec<CliEvent> {
    let mut parser = ClaudeCode.parser();
    stdout.lines().flat_map(|line| parser.line(line)).collect()
}

fn text(events: &[CliEvent]) -> String {
    events
        .iter()
        .filter_map(|event| match event {
            CliEvent::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn tokens(input: u64, output: u64) -> Usage {
    Usage {
        input_tokens: input,
        output_tokens: output,
        ..Usage::default()
    }
}

#[test]
fn a_whole_turn_reads_as_session_thinking_tools_text_and_usage_in_order() {
    let events = parse(FULL_TURN);
    let session = "6a47717f-3412-46c5-8592-87bdc5abfa2c".to_owned();
    let thinking = || {
        vec![
            CliEvent::Reasoning("Let me think ".into()),
            CliEvent::Reasoning("about it.".into()),
        ]
    };
    let mut expected = vec![CliEvent::Session(session)];
    expected.extend(thinking());
    expected.push(CliEvent::ToolStarted {
        id: "toolu_01".into(),
        name: "Bash".into(),
        server: None,
        input: r#"{"command":"echo made > made.txt","description":"Make a file"}"#.into(),
    });
    expected.push(CliEvent::ToolFinished {
        id: "toolu_01".into(),
        name: "Bash".into(),
        server: None,
        output: "(Bash completed with no output)".into(),
        ok: true,
    });
    expected.extend(thinking());
    expected.push(CliEvent::ToolStarted {
        id: "toolu_02".into(),
        name: "echo".into(),
        server: Some("files".into()),
        input: r#"{"text":"ping"}"#.into(),
    });
    expected.push(CliEvent::ToolFinished {
        id: "toolu_02".into(),
        name: "echo".into(),
        server: Some("files".into()),
        output: r#"echoed: {"text": "ping"}"#.into(),
        ok: true,
    });
    expected.extend(thinking());
    expected.push(CliEvent::Text("All do".into()));
    expected.push(CliEvent::Text("ne: made.txt exists.".into()));
    expected.push(CliEvent::Usage {
        usage: tokens(300, 60),
        cost_usd: Some(0.0024),
        total: true,
    });
    assert_eq!(events, expected);
}

#[test]
fn the_text_is_streamed_once_not_again_as_the_whole_block() {
    assert_eq!(text(&parse(FULL_TURN)), "All done: made.txt exists.");
}

#[test]
fn calls_to_massgens_own_bridge_are_left_to_the_bridge_to_report() {
    let renamed = FULL_TURN.replace("mcp__files__echo", "mcp__massgen__echo");
    let events = parse(&renamed);
    let tools: Vec<&CliEvent> = events
        .iter()
        .filter(|event| {
            matches!(
                event,
                CliEvent::ToolStarted { .. } | CliEvent::ToolFinished { .. }
            )
        })
        .collect();
    assert_eq!(tools.len(), 2, "{tools:?}");
    assert!(
        tools
            .iter()
            .all(|event| matches!(event, CliEvent::ToolStarted { name, .. } | CliEvent::ToolFinished { name, .. } if name == "Bash"))
    );
}

#[test]
fn a_resumed_session_costs_only_this_starts_calls_not_the_sessions_total() {
    // The result line says total_cost_usd 0.0016: the first start's 0.0008 and this one's.
    let events = parse(RESUMED);
    assert_eq!(
        events.last(),
        Some(&CliEvent::Usage {
            usage: tokens(100, 20),
            cost_usd: Some(0.0008),
            total: true,
        })
    );
    assert_eq!(
        events.first(),
        Some(&CliEvent::Session(
            "3adb4d07-e012-477e-89fb-8cb6206e5490".into()
        ))
    );
    assert_eq!(
        events
            .iter()
            .filter(|event| matches!(event, CliEvent::Session(_)))
            .count(),
        1
    );
}

#[test]
fn an_api_error_fails_the_run_and_its_text_is_not_the_answer() {
    let events = parse(API_ERROR);
    assert_eq!(text(&events), "");
    let Some(CliEvent::Failed(reason)) = events.last() else {
        panic!("no failure: {events:?}");
    };
    assert!(
        reason.starts_with("API Error: 500 fake error 500."),
        "{reason}"
    );
}

#[test]
fn no_key_and_no_login_fails_with_the_clis_own_words() {
    let events = parse(NOT_LOGGED_IN);
    assert_eq!(
        events.last(),
        Some(&CliEvent::Failed(
            "Not logged in · Please run /login".into()
        ))
    );
}

#[test]
fn resuming_an_unknown_session_fails_with_the_error_list() {
    let events = parse(RESUME_UNKNOWN);
    assert_eq!(
        events.last(),
        Some(&CliEvent::Failed(
            "No conversation found with session ID: 11111111-2222-3333-4444-555555555555".into()
        ))
    );
}

#[test]
fn a_bridge_the_cli_could_not_reach_fails_the_run_at_once() {
    let events = parse(BRIDGE_FAILED);
    assert!(matches!(&events[1], CliEvent::Failed(reason) if reason.contains("`failed`")));
}

#[test]
fn a_refused_tool_finishes_as_not_ok_with_the_reason() {
    let events = parse(PERMISSION_DENIED);
    assert!(events.contains(&CliEvent::ToolFinished {
        id: "toolu_01".into(),
        name: "Bash".into(),
        server: None,
        output: "This command requires approval".into(),
        ok: false,
    }));
}

#[test]
fn usage_counts_cache_reads_and_writes_into_the_prompt() {
    let line = r#"{"type":"result","subtype":"success","is_error":false,"session_id":"s","total_cost_usd":0.5,"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":40,"output_tokens_details":{"thinking_tokens":7},"server_tool_use":{"web_search_requests":2}}}"#;
    let events = parse(line);
    assert_eq!(
        events[1],
        CliEvent::Usage {
            usage: Usage {
                input_tokens: 3210,
                output_tokens: 40,
                reasoning_tokens: 7,
                cached_input_tokens: 3000,
                cache_creation_tokens: 200,
                web_searches: 2,
                ..Usage::default()
            },
            cost_usd: Some(0.5),
            total: true,
        }
    );
}

#[test]
fn lines_that_are_not_json_are_skipped() {
    assert!(parse("Warning: something\n\n{not json").is_empty());
}

#[test]
fn the_version_is_read_from_the_version_line() {
    assert_eq!(
        ClaudeCode
            .parse_version("2.1.332 (Claude Code)\n")
            .as_deref(),
        Some("2.1.332")
    );
    assert_eq!(ClaudeCode.parse_version("Claude Code"), None);
}

#[test]
fn a_login_is_the_credentials_file_or_an_account_in_the_state_file() {
    let home = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    assert!(!ClaudeCode.logged_in(home.path()));
    std::fs::write(home.path().join(".claude.json"), r#"{"userID":"x"}"#).ok();
    assert!(!ClaudeCode.logged_in(home.path()));
    std::fs::write(
        home.path().join(".claude.json"),
        r#"{"oauthAccount":{"accountUuid":"a"}}"#,
    )
    .ok();
    assert!(ClaudeCode.logged_in(home.path()));
    std::fs::remove_file(home.path().join(".claude.json")).ok();
    std::fs::create_dir_all(home.path().join(".claude")).ok();
    std::fs::write(home.path().join(".claude/.credentials.json"), "{}").ok();
    assert!(ClaudeCode.logged_in(home.path()));
}

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
