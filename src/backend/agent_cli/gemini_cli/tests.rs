//! The Gemini CLI dialect against stdout captured from `gemini` 0.61.0 (run against an
//! in-test Gemini API server), and the command it plans.

use std::path::Path;

use serde_json::Value;

use super::{GeminiCli, approval_mode, command_with};
use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use crate::backend::agent_cli::event::CliEvent;
use crate::protocol::Usage;

/// A shell command, an MCP tool of the bridge, then streamed text.
const SHELL_AND_MCP: &str = r#"{"type":"init","timestamp":"2026-11-29T03:24:03.327Z","session_id":"443e51d6-c826-4607-b01c-fa1f5da69fa7","model":"gemini-2.5-flash"}
{"type":"message","timestamp":"2026-11-29T03:24:03.328Z","role":"user","content":"make a file"}
{"type":"tool_use","timestamp":"2026-11-29T03:24:03.390Z","tool_name":"run_shell_command","tool_id":"run_shell_command__run_shell_command_1795922643354_0","parameters":{"command":"echo hi > made.txt","description":"make a file"}}
{"type":"tool_result","timestamp":"2026-11-29T03:24:03.487Z","tool_id":"run_shell_command__run_shell_command_1795922643354_0","status":"success","output":""}
{"type":"tool_use","timestamp":"2026-11-29T03:24:03.509Z","tool_name":"mcp_massgen_header","tool_id":"mcp_massgen_header__mcp_massgen_header_1795922643503_0","parameters":{"name":"authorization"}}
{"type":"tool_result","timestamp":"2026-11-29T03:24:03.537Z","tool_id":"mcp_massgen_header__mcp_massgen_header_1795922643503_0","status":"success","output":"Bearer tok123"}
{"type":"message","timestamp":"2026-11-29T03:24:03.558Z","role":"assistant","content":"all set, the ","delta":true}
{"type":"message","timestamp":"2026-11-29T03:24:03.559Z","role":"assistant","content":"file is made.","delta":true}
{"type":"result","timestamp":"2026-11-29T03:24:03.565Z","status":"success","stats":{"total_tokens":321,"input_tokens":300,"output_tokens":21,"cached":0,"input":300,"duration_ms":238,"tool_calls":2,"models":{"gemini-2.5-flash":{"total_tokens":321,"input_tokens":300,"output_tokens":21,"cached":0,"input":300}}}}"#;

/// A failing MCP tool and a failing file tool.
const TOOL_ERRORS: &str = r#"{"type":"tool_use","timestamp":"2026-11-29T03:26:33.837Z","tool_name":"mcp_massgen_fail","tool_id":"mcp_massgen_fail__mcp_massgen_fail_1795922793812_0","parameters":{"message":"boom"}}
{"type":"tool_result","timestamp":"2026-11-29T03:26:33.885Z","tool_id":"mcp_massgen_fail__mcp_massgen_fail_1795922793812_0","status":"error","output":"Error: MCP tool 'fail' reported an error.","error":{"type":"mcp_tool_error","message":"MCP tool 'fail' reported tool error"}}
{"type":"tool_use","timestamp":"2026-11-29T03:26:33.899Z","tool_name":"read_file","tool_id":"read_file__read_file_1795922793896_0","parameters":{"file_path":"nope.txt"}}
{"type":"tool_result","timestamp":"2026-11-29T03:26:33.907Z","tool_id":"read_file__read_file_1795922793896_0","status":"error","output":"File not found.","error":{"type":"file_not_found","message":"File not found: /tmp/gemtry/ws/nope.txt"}}"#;

/// The model's thoughts are not streamed, but counted in `total_tokens`.
const THOUGHTS_RESULT: &str = r#"{"type":"result","timestamp":"2026-11-29T03:28:23.686Z","status":"success","stats":{"total_tokens":157,"input_tokens":100,"output_tokens":7,"cached":40,"input":60,"duration_ms":50,"tool_calls":0,"models":{"gemini-2.5-flash":{"total_tokens":157,"input_tokens":100,"output_tokens":7,"cached":40,"input":60}}}}"#;

/// An empty model reply: the message comes on an `error` line, the `result` has none.
const INVALID_STREAM: &str = r#"{"type":"init","timestamp":"2026-11-29T03:28:12.086Z","session_id":"acb02bda-f159-4c10-a9fc-d488b06ea431","model":"gemini-2.5-flash"}
{"type":"error","timestamp":"2026-11-29T03:28:19.161Z","severity":"error","message":"The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again."}
{"type":"result","timestamp":"2026-11-29T03:28:19.162Z","status":"error","stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0,"duration_ms":7077,"tool_calls":0,"models":{}}}"#;

/// An API error the CLI gave up on.
const API_ERROR: &str = r#"{"type":"result","timestamp":"2026-11-29T03:25:39.070Z","status":"error","error":{"type":"unknown","message":"[API Error: {\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\"}}]"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0,"duration_ms":0,"tool_calls":0,"models":{"gemini-2.5-flash":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0}}}}"#;

fn parse(stdout: &str) -> Vec<CliEvent> {
    let mut parser = GeminiCli.parser();
    stdout.lines().flat_map(|line| parser.line(line)).collect()
}

fn usage(input: u64, output: u64, reasoning: u64, cached: u64) -> CliEvent {
    CliEvent::Usage {
        usage: Usage {
            input_tokens: input,
            output_tokens: output,
            reasoning_tokens: reasoning,
            cached_input_tokens: cached,
            ..Usage::default()
        },
        cost_usd: None,
        total: true,
    }
}

#[test]
fn a_run_with_a_shell_command_and_a_bridge_tool_reads_in_order() {
    let shell = "run_shell_command__run_shell_command_1795922643354_0";
    let header = "mcp_massgen_header__mcp_massgen_header_1795922643503_0";
    assert_eq!(
        parse(SHELL_AND_MCP),
        vec![
            CliEvent::Session("443e51d6-c826-4607-b01c-fa1f5da69fa7".into()),
            CliEvent::ToolStarted {
                id: shell.into(),
                name: "run_shell_command".into(),
                server: None,
                input: r#"{"command":"echo hi > made.txt","description":"make a file"}"#.into(),
            },
            CliEvent::ToolFinished {
                id: shell.into(),
                name: "run_shell_command".into(),
                server: None,
                output: String::new(),
                ok: true,
            },
            CliEvent::ToolStarted {
                id: header.into(),
                name: "header".into(),
                server: Some("massgen".into()),
                input: r#"{"name":"authorization"}"#.into(),
            },
            CliEvent::ToolFinished {
                id: header.into(),
                name: "header".into(),
                server: Some("massgen".into()),
                output: "Bearer tok123".into(),
                ok: true,
            },
            CliEvent::Text("all set, the ".into()),
            CliEvent::Text("file is made.".into()),
            usage(300, 21, 0, 0),
        ]
    );
}

#[test]
fn a_failed_tool_reports_the_error_message() {
    let finished: Vec<(String, String, bool)> = parse(TOOL_ERRORS)
        .into_iter()
        .filter_map(|event| match event {
            CliEvent::ToolFinished {
                name, output, ok, ..
            } => Some((name, output, ok)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![
            (
                "fail".into(),
                "MCP tool 'fail' reported tool error".into(),
                false
            ),
            (
                "read_file".into(),
                "File not found: /tmp/gemtry/ws/nope.txt".into(),
                false
            ),
        ]
    );
}

#[test]
fn thoughts_count_as_output_and_reasoning() {
    assert_eq!(parse(THOUGHTS_RESULT), vec![usage(100, 57, 50, 40)]);
}

#[test]
fn a_failed_result_without_a_message_takes_the_error_line_before_it() {
    let events = parse(INVALID_STREAM);
    assert_eq!(
        events.last(),
        Some(&CliEvent::Failed(
            "The model returned an empty response with no text or thoughts. This may be a \
             transient API issue; please try again."
                .into()
        ))
    );
}

#[test]
fn an_api_error_fails_the_run_with_its_message() {
    let events = parse(API_ERROR);
    assert_eq!(events.first(), Some(&usage(0, 0, 0, 0)));
    match events.last() {
        Some(CliEvent::Failed(message)) => assert!(message.contains("API key not valid")),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn lines_that_are_not_events_are_skipped() {
    assert_eq!(
        parse("Warning: 256-color support not detected.\n\n{\"type\":\"later\"}"),
        vec![]
    );
}

#[test]
fn the_version_is_read_from_its_output() {
    assert_eq!(
        GeminiCli.parse_version("0.61.0\n").as_deref(),
        Some("0.61.0")
    );
    assert_eq!(
        GeminiCli.parse_version("gemini v1.2.3").as_deref(),
        Some("1.2.3")
    );
    assert_eq!(GeminiCli.parse_version("no version here"), None);
}

#[test]
fn a_login_is_found_in_the_users_gemini_directory() {
    let home = tempfile::tempdir().unwrap();
    assert!(!GeminiCli.logged_in(home.path()));
    std::fs::create_dir(home.path().join(".gemini")).unwrap();
    std::fs::write(home.path().join(".gemini/oauth_creds.json"), "{}").unwrap();
    assert!(GeminiCli.logged_in(home.path()));
}

#[test]
fn permission_modes_map_to_approval_modes() {
    assert_eq!(approval_mode(None), "yolo");
    assert_eq!(approval_mode(Some("bypassPermissions")), "yolo");
    assert_eq!(approval_mode(Some("acceptEdits")), "auto_edit");
    assert_eq!(approval_mode(Some("plan")), "plan");
    assert_eq!(approval_mode(Some("default")), "default");
}

/// A launch in `home` with the given options and environment-free defaults.
fn launch<'a>(
    home: &'a Path,
    bridge: &'a BridgeAddress,
    options: &'a CliOptions,
    base_url: Option<&'a str>,
) -> Launch<'a> {
    Launch {
        model: Some("gemini-2.5-flash"),
        cwd: Path::new("/work/agent_a"),
        home,
        system_prompt: "You are agent_a.",
        prompt: "Write the answer.",
        resume: None,
        bridge,
        options,
        base_url,
    }
}

fn settings_of(plan: &crate::backend::agent_cli::dialect::CommandPlan, home: &Path) -> Value {
    let path = home.join(".gemini/settings.json");
    let (_, text) = plan.files.iter().find(|(file, _)| *file == path).unwrap();
    serde_json::from_str(text).unwrap()
}

fn selected_auth(settings: &Value) -> &str {
    settings["security"]["auth"]["selectedType"]
        .as_str()
        .unwrap()
}

#[test]
fn an_api_key_in_the_environment_selects_key_auth() {
    let home = Path::new("/state/agent_a");
    let bridge = BridgeAddress {
        url: "http://127.0.0.1:9/mcp".into(),
        token: "t".into(),
    };
    let options = CliOptions::default();
    let with_key = |name: &str| (name == "GEMINI_API_KEY").then(|| "k".to_owned());
    let plan = command_with(&launch(home, &bridge, &options, None), &with_key);
    assert_eq!(selected_auth(&settings_of(&plan, home)), "gemini-api-key");
    assert!(!plan.env.iter().any(|(name, _)| name == "GEMINI_API_KEY"));
}

fn bridge() -> BridgeAddress {
    BridgeAddress {
        url: "http://127.0.0.1:9/mcp".into(),
        token: "secret-token".into(),
    }
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn the_plan_runs_headless_with_the_prompt_on_stdin() {
    let home = Path::new("/state/agent_a");
    let (bridge, options) = (bridge(), CliOptions::default());
    let mut start = launch(home, &bridge, &options, Some("http://127.0.0.1:7"));
    start.resume = Some("443e51d6-c826-4607-b01c-fa1f5da69fa7");
    let plan = command_with(&start, &no_env);
    assert_eq!(
        plan.args,
        [
            "--output-format",
            "stream-json",
            "--skip-trust",
            "--approval-mode",
            "yolo",
            "--model",
            "gemini-2.5-flash",
            "--resume",
            "443e51d6-c826-4607-b01c-fa1f5da69fa7",
            "--prompt",
            "",
        ]
    );
    assert_eq!(plan.stdin.as_deref(), Some("Write the answer."));
    let env = |name: &str| {
        plan.env
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(env("GEMINI_CLI_HOME"), Some("/state/agent_a"));
    assert_eq!(env("GOOGLE_GEMINI_BASE_URL"), Some("http://127.0.0.1:7"));
    assert_eq!(env("GEMINI_SANDBOX"), Some("false"));
    let system = plan
        .files
        .iter()
        .find(|(path, _)| path == &home.join(".gemini/GEMINI.md"));
    assert_eq!(
        system.map(|(_, text)| text.as_str()),
        Some("You are agent_a.")
    );
}

#[test]
fn the_settings_register_the_bridge_and_switch_off_what_phones_home() {
    let home = Path::new("/state/agent_a");
    let (bridge, options) = (bridge(), CliOptions::default());
    let plan = command_with(&launch(home, &bridge, &options, Some("http://x")), &no_env);
    let settings = settings_of(&plan, home);
    assert_eq!(selected_auth(&settings), "gemini-api-key");
    let server = &settings["mcpServers"]["massgen"];
    assert_eq!(server["httpUrl"], "http://127.0.0.1:9/mcp");
    assert_eq!(server["headers"]["Authorization"], "Bearer secret-token");
    assert_eq!(settings["privacy"]["usageStatisticsEnabled"], false);
    assert_eq!(settings["telemetry"]["enabled"], false);
    assert_eq!(settings["general"]["enableAutoUpdate"], false);
    assert_eq!(settings["ide"]["enabled"], false);
}

#[test]
fn tool_options_become_exclusions_and_approvals() {
    let home = Path::new("/state/agent_a");
    let bridge = bridge();
    let excluded = |options: &CliOptions| -> Vec<String> {
        let plan = command_with(&launch(home, &bridge, options, None), &no_env);
        serde_json::from_value(settings_of(&plan, home)["tools"]["exclude"].clone()).unwrap()
    };
    let plain = excluded(&CliOptions::default());
    assert!(plain.contains(&"google_web_search".to_owned()));
    assert!(plain.contains(&"save_memory".to_owned()));
    let options = CliOptions {
        web_search: true,
        disallowed_tools: vec!["run_shell_command".into()],
        allowed_tools: vec!["read_file".into()],
        permission_mode: Some("acceptEdits".into()),
        ..CliOptions::default()
    };
    let searching = excluded(&options);
    assert!(!searching.contains(&"google_web_search".to_owned()));
    assert!(searching.contains(&"run_shell_command".to_owned()));
    let plan = command_with(&launch(home, &bridge, &options, None), &no_env);
    assert_eq!(settings_of(&plan, home)["tools"]["allowed"][0], "read_file");
    assert!(
        plan.args
            .windows(2)
            .any(|pair| pair == ["--approval-mode", "auto_edit"])
    );
}

#[test]
fn only_a_google_api_key_is_handed_on_as_the_gemini_key() {
    let home = Path::new("/state/agent_a");
    let (bridge, options) = (bridge(), CliOptions::default());
    let google = |name: &str| (name == "GOOGLE_API_KEY").then(|| "g-key".to_owned());
    let plan = command_with(&launch(home, &bridge, &options, None), &google);
    assert!(
        plan.env
            .contains(&("GEMINI_API_KEY".into(), "g-key".into()))
    );
    let vertex = |name: &str| (name == "GOOGLE_GENAI_USE_VERTEXAI").then(|| "true".to_owned());
    let plan = command_with(&launch(home, &bridge, &options, None), &vertex);
    assert_eq!(selected_auth(&settings_of(&plan, home)), "vertex-ai");
}

#[test]
fn without_a_key_the_users_login_is_copied_into_the_cli_home() {
    let user = tempfile::tempdir().unwrap();
    std::fs::create_dir(user.path().join(".gemini")).unwrap();
    std::fs::write(user.path().join(".gemini/oauth_creds.json"), "{\"a\":1}").unwrap();
    let user_home = user.path().display().to_string();
    let env = |name: &str| (name == "HOME").then(|| user_home.clone());
    let home = Path::new("/state/agent_a");
    let (bridge, options) = (bridge(), CliOptions::default());
    let plan = command_with(&launch(home, &bridge, &options, None), &env);
    assert_eq!(selected_auth(&settings_of(&plan, home)), "oauth-personal");
    let copied = plan
        .files
        .iter()
        .find(|(path, _)| path == &home.join(".gemini/oauth_creds.json"));
    assert_eq!(copied.map(|(_, text)| text.as_str()), Some("{\"a\":1}"));
}

#[test]
fn a_prompt_that_looks_like_a_slash_command_is_sent_as_text() {
    let home = Path::new("/state/agent_a");
    let (bridge, options) = (bridge(), CliOptions::default());
    let mut start = launch(home, &bridge, &options, None);
    start.prompt = "/quit now";
    start.model = None;
    let plan = command_with(&start, &no_env);
    assert_eq!(plan.stdin.as_deref(), Some(" /quit now"));
    assert!(!plan.args.contains(&"--model".to_owned()));
}

#[test]
fn settings_name_the_bridge_only_when_there_is_one() {
    use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions};
    let options = CliOptions::default();
    let bridge = BridgeAddress {
        url: "http://127.0.0.1:7/mcp".into(),
        token: "t0k".into(),
    };
    let with = super::settings::settings(super::Auth::ApiKey, &bridge, &options);
    assert_eq!(
        with["mcpServers"]["massgen"]["httpUrl"],
        "http://127.0.0.1:7/mcp"
    );
    let none = BridgeAddress {
        url: String::new(),
        token: String::new(),
    };
    let without = super::settings::settings(super::Auth::ApiKey, &none, &options);
    assert_eq!(without["mcpServers"], serde_json::json!({}));
}
