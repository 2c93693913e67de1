//! The real Gemini CLI (`gemini` 0.61.0) started with the `gemini_cli` dialect's plan
//! against the fake Gemini API and massgen's tool bridge: text, its own shell tool, a bridge
//! tool, usage, the session and its resumption, as its stdout reads through the dialect.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use massgen::backend::ToolSpec;
use massgen::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use massgen::backend::agent_cli::event::CliEvent;
use massgen::backend::agent_cli::gemini_cli::GeminiCli;
use massgen::mcp::bridge::{BridgeReply, BridgeServer, BridgeTools, serve};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::fake_gemini_cli::{FakeModel, Step};
use crate::harness;

const API_KEY: &str = "fake-gemini-key";
const MODEL: &str = "gemini-2.5-flash";
const SYSTEM_PROMPT: &str = "You are agent_a, one of several agents answering together.";
/// No start of the CLI may take longer.
const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The bridge's tools: `vote` and `new_answer`, recording each call.
#[derive(Clone, Default)]
struct Workflow {
    calls: Arc<Mutex<Vec<(String, Value)>>>,
}

impl BridgeTools for Workflow {
    fn tools(&self) -> Vec<ToolSpec> {
        let tool = |name: &str, field: &str| ToolSpec {
            name: name.into(),
            description: format!("The {name} workflow tool."),
            parameters: json!({
                "type": "object",
                "properties": { field: { "type": "string" } },
                "required": [field],
            }),
        };
        vec![tool("vote", "agent_id"), tool("new_answer", "content")]
    }

    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply> {
        self.calls.lock().unwrap().push((name.clone(), arguments));
        Box::pin(async move {
            BridgeReply {
                text: format!("{name} recorded"),
                is_error: false,
            }
        })
    }
}

/// One agent's directories: its workspace, its CLI home, and a user home of its own so
/// nothing of the real user's `~/.gemini` is read.
struct Agent {
    cwd: tempfile::TempDir,
    home: tempfile::TempDir,
    user_home: tempfile::TempDir,
    workflow: Workflow,
    bridge: BridgeServer,
}

impl Agent {
    async fn new() -> Self {
        let workflow = Workflow::default();
        let bridge = serve(Arc::new(workflow.clone())).await.unwrap();
        Self {
            cwd: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            user_home: tempfile::tempdir().unwrap(),
            workflow,
            bridge,
        }
    }

    fn address(&self) -> &BridgeAddress {
        &self.bridge.address
    }
}

struct Run {
    events: Vec<CliEvent>,
    stderr: String,
    status: ExitStatus,
}

impl Run {
    fn session(&self) -> Option<&str> {
        self.events.iter().find_map(|event| match event {
            CliEvent::Session(id) => Some(id.as_str()),
            _ => None,
        })
    }

    fn text(&self) -> String {
        self.events
            .iter()
            .filter_map(|event| match event {
                CliEvent::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

fn gemini() -> Option<PathBuf> {
    harness::peer("node_modules/.bin/gemini")
}
/// What differs between the tests' starts.
struct Start<'a> {
    prompt: &'a str,
    resume: Option<&'a str>,
    model: Option<&'a str>,
    api_key: Option<&'a str>,
}

impl<'a> Start<'a> {
    fn new(prompt: &'a str) -> Self {
        Self {
            prompt,
            resume: None,
            model: Some(MODEL),
            api_key: Some(API_KEY),
        }
    }
}

/// Starts the CLI as the dialect plans it, with only PATH, a user home of the test's own
/// and the fake key from the environment, and reads its stdout through the dialect.
async fn run(program: &Path, fake: &FakeModel, agent: &Agent, start: Start<'_>) -> Run {
    let options = CliOptions::default();
    let launch = Launch {
        model: start.model,
        cwd: agent.cwd.path(),
        home: agent.home.path(),
        system_prompt: SYSTEM_PROMPT,
        prompt: start.prompt,
        resume: start.resume,
        bridge: agent.address(),
        options: &options,
        base_url: Some(&fake.base_url),
    };
    let plan = GeminiCli.command(&launch);
    for (path, text) in &plan.files {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut command = tokio::process::Command::new(program);
    command
        .args(&plan.args)
        .current_dir(agent.cwd.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", agent.user_home.path())
        .envs(plan.env.iter().map(|(name, value)| (name, value)))
        .process_group(0)
        .kill_on_drop(true)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(key) = start.api_key {
        command.env("GEMINI_API_KEY", key);
    }
    let mut child = command.spawn().unwrap();
    let group = child.id().unwrap();
    let prompt = plan.stdin.unwrap_or_default();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(prompt.as_bytes())
        .await
        .unwrap();
    let output = tokio::time::timeout(RUN_LIMIT, child.wait_with_output()).await;
    kill_group(group);
    let output = output
        .expect("the Gemini CLI did not finish in time")
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut parser = GeminiCli.parser();
    Run {
        events: stdout.lines().flat_map(|line| parser.line(line)).collect(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status,
    }
}

/// Whatever the CLI left running in its process group goes.
fn kill_group(group: u32) {
    let Some(pid) = rustix::process::Pid::from_raw(group as i32) else {
        return;
    };
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
}

fn call(tool: &str, arguments: Value) -> Step {
    Step::Call {
        tool: tool.into(),
        arguments,
    }
}

#[tokio::test]
async fn text_streams_with_the_session_and_the_usage_the_server_billed() {
    let Some(gemini) = gemini() else { return };
    let fake = FakeModel::start(vec![Step::Text("Hello from the fake model.".into())]).await;
    let agent = Agent::new().await;
    let run = run(&gemini, &fake, &agent, Start::new("Say hello.")).await;
    assert!(run.status.success(), "{}", run.stderr);
    assert!(matches!(run.events.first(), Some(CliEvent::Session(_))));
    assert_eq!(run.text(), "Hello from the fake model.");
    let texts = run
        .events
        .iter()
        .filter(|event| matches!(event, CliEvent::Text(_)));
    assert_eq!(
        texts.count(),
        2,
        "the reply streams in the server's two chunks"
    );
    let requests = fake.requests();
    assert_eq!((requests.len(), fake.side_requests().len()), (1, 0));
    let request = &requests[0];
    assert_eq!(
        request.path,
        format!("/v1beta/models/{MODEL}:streamGenerateContent?alt=sse")
    );
    assert_eq!(request.header("x-goog-api-key"), Some(API_KEY));
    let system = request.body["systemInstruction"].to_string();
    assert!(system.contains(SYSTEM_PROMPT), "{system}");
    assert_eq!(request.user_texts().last().unwrap(), "Say hello.");
    let (prompt, reply) = fake.billed();
    let usage = run.events.iter().find_map(|event| match event {
        CliEvent::Usage { usage, total, .. } => Some((*usage, *total)),
        _ => None,
    });
    let (usage, total) = usage.expect("the CLI reports its usage");
    assert!(total);
    assert_eq!((usage.input_tokens, usage.output_tokens), (prompt, reply));
    assert!(matches!(run.events.last(), Some(CliEvent::Usage { .. })));
}

#[tokio::test]
async fn its_own_shell_tool_runs_in_the_workspace() {
    let Some(gemini) = gemini() else { return };
    let command = json!({ "command": "echo made > made.txt", "description": "make a file" });
    let steps = vec![
        call("run_shell_command", command),
        Step::Text("Made it.".into()),
    ];
    let fake = FakeModel::start(steps).await;
    let agent = Agent::new().await;
    let run = run(&gemini, &fake, &agent, Start::new("Make a file.")).await;
    assert!(run.status.success(), "{}", run.stderr);
    let made = std::fs::read_to_string(agent.cwd.path().join("made.txt")).unwrap();
    assert_eq!(made, "made\n");
    let entries = std::fs::read_dir(agent.cwd.path()).unwrap();
    let names: Vec<_> = entries.map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(
        names,
        ["made.txt"],
        "the CLI keeps its state out of the workspace"
    );
    let requests = fake.requests();
    assert!(requests[0].offers("run_shell_command"));
    assert_eq!(requests[1].tool_results(), 1);
    assert!(run.events.iter().any(|event| matches!(
        event,
        CliEvent::ToolFinished { name, server: None, ok: true, .. } if name == "run_shell_command"
    )));
}

#[tokio::test]
async fn a_bridge_tool_is_called_with_the_bridges_token_and_events_come_in_order() {
    let Some(gemini) = gemini() else { return };
    let steps = vec![
        call("run_shell_command", json!({ "command": "true" })),
        call("vote", json!({ "agent_id": "agent_b" })),
        Step::Text("Voted for agent_b.".into()),
    ];
    let fake = FakeModel::start(steps).await;
    let agent = Agent::new().await;
    let run = run(&gemini, &fake, &agent, Start::new("Vote.")).await;
    assert!(run.status.success(), "{}", run.stderr);
    let calls = agent.workflow.calls.lock().unwrap().clone();
    assert_eq!(
        calls,
        [("vote".to_owned(), json!({ "agent_id": "agent_b" }))]
    );
    let first = &fake.requests()[0];
    assert!(first.offers("mcp_massgen_vote"), "{:?}", first.tool_names());
    assert!(first.offers("mcp_massgen_new_answer"));
    assert!(!first.offers("google_web_search"));
    let kinds: Vec<String> = run
        .events
        .iter()
        .map(|event| match event {
            CliEvent::Session(_) => "session".into(),
            CliEvent::Text(_) => "text".into(),
            CliEvent::ToolStarted { name, server, .. } => format!("start {server:?} {name}"),
            CliEvent::ToolFinished { name, ok, .. } => format!("finish {name} {ok}"),
            CliEvent::Usage { .. } => "usage".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "session",
            "start None run_shell_command",
            "finish run_shell_command true",
            "start Some(\"massgen\") vote",
            "finish vote true",
            "text",
            "text",
            "usage",
        ]
    );
}

#[tokio::test]
async fn a_second_start_resumes_the_session_and_the_cli_resends_its_history() {
    let Some(gemini) = gemini() else { return };
    let steps = vec![
        Step::Text("First answer.".into()),
        Step::Text("Second answer.".into()),
    ];
    let fake = FakeModel::start(steps).await;
    let agent = Agent::new().await;
    let first = run(&gemini, &fake, &agent, Start::new("FIRST PROMPT alpha")).await;
    let session = first.session().expect("a session id").to_owned();
    let resumed = Start {
        resume: Some(&session),
        ..Start::new("SECOND PROMPT beta")
    };
    let second = run(&gemini, &fake, &agent, resumed).await;
    assert!(second.status.success(), "{}", second.stderr);
    assert_eq!(second.session(), Some(session.as_str()));
    assert_eq!(second.text(), "Second answer.");
    let resumed = &fake.requests()[1];
    let user_texts = resumed.user_texts();
    let firsts = user_texts
        .iter()
        .filter(|text| *text == "FIRST PROMPT alpha");
    assert_eq!(
        firsts.count(),
        1,
        "turn 1's prompt is history, once: {user_texts:?}"
    );
    assert_eq!(
        user_texts.last().map(String::as_str),
        Some("SECOND PROMPT beta")
    );
    assert!(resumed.text().contains("First answer."));
}

#[tokio::test]
async fn the_auto_model_asks_the_router_without_taking_a_step() {
    let Some(gemini) = gemini() else { return };
    let fake = FakeModel::start(vec![Step::Text("Routed.".into())]).await;
    let agent = Agent::new().await;
    let start = Start {
        model: None,
        ..Start::new("Which model?")
    };
    let run = run(&gemini, &fake, &agent, start).await;
    assert!(run.status.success(), "{}", run.stderr);
    assert_eq!(run.text(), "Routed.");
    let side = fake.side_requests();
    assert_eq!(side.len(), 1, "{side:?}");
    assert!(
        side[0].path.ends_with(":generateContent"),
        "{}",
        side[0].path
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(requests[0].path.ends_with(":streamGenerateContent?alt=sse"));
}

#[tokio::test]
async fn without_a_key_the_cli_exits_with_the_reason_on_stderr_only() {
    let Some(gemini) = gemini() else { return };
    let fake = FakeModel::start(Vec::new()).await;
    let agent = Agent::new().await;
    let start = Start {
        api_key: None,
        ..Start::new("Anyone there?")
    };
    let run = run(&gemini, &fake, &agent, start).await;
    assert_eq!(run.status.code(), Some(41), "{}", run.stderr);
    assert_eq!(run.events, []);
    assert!(run.stderr.contains("GEMINI_API_KEY"), "{}", run.stderr);
    assert!(fake.requests().is_empty());
}
