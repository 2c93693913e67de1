//! The Claude Code dialect against stdout captured from the real CLI (2.1.332, in
//! `tests/fixtures/claude_code/`).

use crate::backend::agent_cli::claude_code::ClaudeCode;
use crate::backend::agent_cli::dialect::Dialect;
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
