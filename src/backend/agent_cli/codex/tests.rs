//! The Codex dialect against output captured from `codex exec --json` 0.171.0.

use std::path::Path;

use super::Codex;
use super::config::toml_string;
use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use crate::backend::agent_cli::event::CliEvent;
use crate::protocol::Usage;

/// A first start: an MCP tool call through the bridge, then the answer.
const VOTE_RUN: &str = r#"{"type":"thread.started","thread_id":"01a22554-ddc5-7a00-8c05-7dbc3e520b05"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `gpt-5` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"massgen","tool":"vote","arguments":{"agent_id":"agent1","reason":"best"},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"massgen","tool":"vote","arguments":{"agent_id":"agent1","reason":"best"},"result":{"content":[{"type":"text","text":"recorded vote {\"agent_id\": \"agent1\", \"reason\": \"best\"}"}],"structured_content":null},"error":null,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"voted."}}
{"type":"turn.completed","usage":{"input_tokens":200,"cached_input_tokens":20,"cache_write_input_tokens":0,"output_tokens":40,"reasoning_output_tokens":10}}"#;

/// The same session resumed: Codex reports the session's running total.
const RESUMED_RUN: &str = r#"{"type":"thread.started","thread_id":"01a22554-ddc5-7a00-8c05-7dbc3e520b05"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"resumed ok."}}
{"type":"turn.completed","usage":{"input_tokens":300,"cached_input_tokens":30,"cache_write_input_tokens":0,"output_tokens":60,"reasoning_output_tokens":15}}"#;

/// Codex's own tools: a patch, a command that failed, reasoning and a web search (whose
/// item carries `id` twice).
const TOOLS_RUN: &str = r#"{"type":"thread.started","thread_id":"01a22563-1f7f-7833-a23f-f5343daef37f"}
{"type":"item.started","item":{"id":"item_0","type":"file_change","changes":[{"path":"/tmp/cx/ws15/hello.txt","kind":"add"}],"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"/tmp/cx/ws15/hello.txt","kind":"add"}],"status":"completed"}}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc 'exit 3'","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc 'exit 3'","aggregated_output":"oops\n","exit_code":3,"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","type":"reasoning","text":"Thinking about the file"}}
{"type":"item.started","item":{"id":"item_3","type":"web_search","id":"ws_1","query":"rust axum","action":{"type":"search","query":"rust axum"}}}
{"type":"item.completed","item":{"id":"item_3","type":"web_search","id":"ws_1","query":"rust axum","action":{"type":"search","query":"rust axum"}}}
{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":10,"cache_write_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":5}}"#;

fn events(codex: &Codex, run: &str) -> Vec<CliEvent> {
    let mut parser = codex.parser();
    run.lines().flat_map(|line| parser.line(line)).collect()
}

fn usage(input: u64, cached: u64, output: u64, reasoning: u64) -> CliEvent {
    CliEvent::Usage {
        usage: Usage {
            input_tokens: input,
            cached_input_tokens: cached,
            output_tokens: output,
            reasoning_tokens: reasoning,
            ..Usage::default()
        },
        cost_usd: None,
        total: true,
    }
}

#[test]
fn a_run_reports_its_session_tool_calls_text_and_usage_in_order() {
    let session = "01a22554-ddc5-7a00-8c05-7dbc3e520b05".to_string();
    assert_eq!(
        events(&Codex::new(), VOTE_RUN),
        vec![
            CliEvent::Session(session),
            CliEvent::ToolStarted {
                id: "item_1".into(),
                name: "vote".into(),
                server: Some("massgen".into()),
                input: r#"{"agent_id":"agent1","reason":"best"}"#.into(),
            },
            CliEvent::ToolFinished {
                id: "item_1".into(),
                name: "vote".into(),
                server: Some("massgen".into()),
                output: r#"recorded vote {"agent_id": "agent1", "reason": "best"}"#.into(),
                ok: true,
            },
            CliEvent::Text("voted.".into()),
            usage(200, 20, 40, 10),
        ]
    );
}

#[test]
fn a_resumed_session_reports_only_its_own_tokens() {
    let codex = Codex::new();
    events(&codex, VOTE_RUN);
    let resumed = events(&codex, RESUMED_RUN);
    assert_eq!(resumed.last(), Some(&usage(100, 10, 20, 5)));
    assert_eq!(resumed[1], CliEvent::Text("resumed ok.".into()));
}

#[test]
fn codex_tools_become_tool_cards_with_their_outcome() {
    let events = events(&Codex::new(), TOOLS_RUN);
    assert_eq!(
        events[1..4],
        [
            CliEvent::ToolStarted {
                id: "item_0".into(),
                name: "apply_patch".into(),
                server: None,
                input: "add /tmp/cx/ws15/hello.txt".into(),
            },
            CliEvent::ToolFinished {
                id: "item_0".into(),
                name: "apply_patch".into(),
                server: None,
                output: "add /tmp/cx/ws15/hello.txt".into(),
                ok: true,
            },
            CliEvent::ToolStarted {
                id: "item_1".into(),
                name: "shell".into(),
                server: None,
                input: "exit 3".into(),
            },
        ]
    );
    assert!(matches!(
        &events[4],
        CliEvent::ToolFinished { output, ok: false, .. } if output == "oops\n"
    ));
    assert_eq!(
        events[5],
        CliEvent::Reasoning("Thinking about the file".into())
    );
    assert!(matches!(
        &events[6..8],
        [
            CliEvent::ToolStarted { id: started, name, input, .. },
            CliEvent::ToolFinished { id: finished, ok: true, .. },
        ] if started == finished && name == "web_search" && input == "rust axum"
    ));
    let CliEvent::Usage { usage, .. } = &events[8] else {
        panic!("no usage: {events:?}");
    };
    assert_eq!(usage.web_searches, 1);
}

#[test]
fn a_failed_turn_fails_and_retries_and_warnings_do_not() {
    let run = r#"{"type":"thread.started","thread_id":"t1"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"`[features].multi_agent` is deprecated."}}
{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: Incorrect API key provided)"}
{"type":"error","message":"Invalid model foo"}
{"type":"turn.failed","error":{"message":"Invalid model foo"}}
not json: a line of noise"#;
    assert_eq!(
        events(&Codex::new(), run),
        vec![
            CliEvent::Session("t1".into()),
            CliEvent::Failed("Invalid model foo".into()),
        ]
    );
}

#[test]
fn an_mcp_tool_that_reports_an_error_finishes_not_ok() {
    let line = r#"{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"massgen","tool":"new_answer","arguments":{"content":"x"},"result":{"content":[{"type":"text","text":"no answer yet"}],"structured_content":null},"error":null,"status":"failed"}}"#;
    let mut parser = Codex::new().parser();
    assert!(matches!(
        &parser.line(line)[..],
        [CliEvent::ToolFinished { ok: false, output, .. }] if output == "no answer yet"
    ));
}

#[test]
fn commands_show_their_script_without_the_shell_wrapper() {
    for (reported, shown) in [
        (
            "/bin/bash -lc 'echo hello > made.txt'",
            "echo hello > made.txt",
        ),
        (r#"/bin/bash -lc 'echo '\''quoted'\'''"#, "echo 'quoted'"),
        ("bash -c 'ls'", "ls"),
        ("python3 script.py", "python3 script.py"),
    ] {
        assert_eq!(super::parser::unwrap_shell(reported), shown);
    }
}

#[test]
fn the_version_is_read_from_codex_cli_output() {
    let codex = Codex::new();
    assert_eq!(
        codex.parse_version("codex-cli 0.171.0\n"),
        Some("0.171.0".into())
    );
    assert_eq!(codex.parse_version("no version here"), None);
}

#[test]
fn a_login_is_the_auth_file_in_the_users_codex_home() {
    let home = tempfile::tempdir().unwrap();
    let codex = Codex::new();
    assert!(!codex.logged_in(home.path()));
    let login = Codex::user_login(home.path());
    std::fs::create_dir_all(login.parent().unwrap()).unwrap();
    std::fs::write(&login, r#"{"auth_mode":"apikey"}"#).unwrap();
    assert!(codex.logged_in(home.path()));
}

fn launch<'a>(
    options: &'a CliOptions,
    bridge: &'a BridgeAddress,
    resume: Option<&'a str>,
) -> Launch<'a> {
    Launch {
        model: Some("gpt-5.5"),
        cwd: Path::new("/work/agent_a"),
        home: Path::new("/run/agent_a/codex"),
        system_prompt: "You are agent_a.\nVote with \"vote\".",
        prompt: "Solve it",
        resume,
        bridge,
        options,
        base_url: Some("http://127.0.0.1:9/v1"),
    }
}

#[test]
fn a_first_start_runs_exec_in_the_workspace_with_the_prompt_on_stdin() {
    let bridge = BridgeAddress {
        url: "http://127.0.0.1:7/mcp".into(),
        token: "secret".into(),
    };
    let options = CliOptions::default();
    let plan = super::command(&launch(&options, &bridge, None), false);
    assert_eq!(
        plan.args,
        [
            "exec",
            "--json",
            "--skip-git-repo-check",
            "--cd",
            "/work/agent_a",
            "-"
        ]
    );
    assert_eq!(plan.stdin.as_deref(), Some("Solve it"));
    assert!(
        plan.env
            .contains(&("CODEX_HOME".into(), "/run/agent_a/codex".into()))
    );
    assert!(
        plan.env
            .contains(&("MASSGEN_BRIDGE_TOKEN".into(), "secret".into()))
    );
    let (path, config) = &plan.files[0];
    assert_eq!(path, Path::new("/run/agent_a/codex/config.toml"));
    assert!(
        !config.contains("secret"),
        "the token stays out of the file"
    );
    for expected in [
        "model_provider = \"massgen\"",
        "model = \"gpt-5.5\"",
        "approval_policy = \"never\"",
        "sandbox_mode = \"danger-full-access\"",
        "web_search = \"disabled\"",
        "developer_instructions = \"You are agent_a.\\nVote with \\\"vote\\\".\"",
        "base_url = \"http://127.0.0.1:9/v1\"",
        "[mcp_servers.massgen]\nurl = \"http://127.0.0.1:7/mcp\"",
        "bearer_token_env_var = \"MASSGEN_BRIDGE_TOKEN\"",
        "check_for_update_on_startup = false",
        "[analytics]\nenabled = false",
    ] {
        assert!(
            config.contains(expected),
            "{expected} missing from\n{config}"
        );
    }
}

#[test]
fn a_resumed_start_names_the_session_and_options_change_the_config() {
    let bridge = BridgeAddress {
        url: String::new(),
        token: String::new(),
    };
    let options = CliOptions {
        permission_mode: Some("dangerous-no-sandbox".into()),
        reasoning_effort: Some("high".into()),
        web_search: true,
        disallowed_tools: vec!["Bash".into()],
        ..CliOptions::default()
    };
    let plan = super::command(&launch(&options, &bridge, Some("thread-1")), true);
    assert_eq!(
        plan.args,
        [
            "exec",
            "resume",
            "--json",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            "thread-1",
            "-"
        ]
    );
    let config = &plan.files[0].1;
    for expected in [
        "model_reasoning_effort = \"high\"",
        "web_search = \"live\"",
        "sandbox_mode = \"danger-full-access\"",
        "shell_tool = false",
    ] {
        assert!(
            config.contains(expected),
            "{expected} missing from\n{config}"
        );
    }
    assert!(!config.contains("[mcp_servers"), "no bridge, no server");
}

#[test]
fn codex_confines_its_commands_itself_only_when_massgen_does_not() {
    let bridge = BridgeAddress {
        url: String::new(),
        token: String::new(),
    };
    for (mode, own, sandbox) in [
        (None, true, "workspace-write"),
        (Some("plan"), true, "read-only"),
        (Some("full-access"), true, "danger-full-access"),
        (None, false, "danger-full-access"),
        (Some("plan"), false, "danger-full-access"),
    ] {
        let options = CliOptions {
            permission_mode: mode.map(str::to_string),
            ..CliOptions::default()
        };
        let plan = super::command(&launch(&options, &bridge, None), own);
        let expected = format!("sandbox_mode = \"{sandbox}\"");
        assert!(
            plan.files[0].1.contains(&expected),
            "{mode:?} {own}: {}",
            plan.files[0].1
        );
        assert!(!plan.args.iter().any(|arg| arg.starts_with("--dangerously")));
    }
}

#[test]
fn toml_strings_escape_what_toml_requires() {
    assert_eq!(
        toml_string("a\"b\\c\nd\te\u{1}\u{7f}é"),
        "\"a\\\"b\\\\c\\nd\te\\u0001\\u007Fé\""
    );
}
