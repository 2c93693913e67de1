//! The real Claude Code CLI (the pinned `claude` in tests/peers/node_modules), started with
//! the `claude_code` dialect's command plan against the fake Anthropic server and a live
//! tool bridge: text, its own shell tool, a massgen tool over MCP, usage, session resume.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use massgen::backend::ToolSpec;
use massgen::backend::agent_cli::claude_code::ClaudeCode;
use massgen::backend::agent_cli::dialect::{BridgeAddress, CliOptions, Dialect, Launch};
use massgen::backend::agent_cli::event::CliEvent;
use massgen::mcp::bridge::{BridgeReply, BridgeServer, BridgeTools, serve};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::fake_claude_code::{FakeModel, Step};
use crate::harness;

/// The longest one start of the CLI may take before the test fails.
const START_LIMIT: Duration = Duration::from_secs(120);
const API_KEY: &str = "sk-ant-test-0000";
const SYSTEM_PROMPT: &str = "You are agent_a, one of several agents working on one task.";

/// Two CLIs at a time: each is a large native process, and the machine may have two cores.
static SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// The tools behind the bridge: `vote`, which records its calls.
#[derive(Clone, Default)]
struct Votes(Arc<Mutex<Vec<Value>>>);

impl BridgeTools for Votes {
    fn tools(&self) -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: "vote".into(),
            description: "Vote for the best answer.".into(),
            parameters: json!({"type": "object",
                "properties": {"agent_id": {"type": "string"}}, "required": ["agent_id"]}),
        }]
    }

    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply> {
        self.0.lock().unwrap().push(arguments.clone());
        Box::pin(async move {
            BridgeReply {
                text: format!(
                    "{name} recorded for {}",
                    arguments["agent_id"].as_str().unwrap_or_default()
                ),
                is_error: false,
            }
        })
    }
}

/// One agent's directories: its workspace, its CLI state, and a stand-in user home so the
/// CLI never reads the real one.
struct Agent {
    program: PathBuf,
    cwd: tempfile::TempDir,
    home: tempfile::TempDir,
    user_home: tempfile::TempDir,
    votes: Votes,
    bridge: BridgeServer,
}

impl Agent {
    async fn new() -> Option<Self> {
        let program = harness::peer("node_modules/.bin/claude")?;
        let votes = Votes::default();
        let bridge = serve(Arc::new(votes.clone())).await.unwrap();
        Some(Self {
            program,
            cwd: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            user_home: tempfile::tempdir().unwrap(),
            votes,
            bridge,
        })
    }

    fn cwd(&self) -> &Path {
        self.cwd.path()
    }

    /// One start of the CLI, to the end of its output (or the limit).
    async fn run(&self, fake: &FakeModel, prompt: &str, resume: Option<&str>) -> Run {
        let options = CliOptions::default();
        let address: &BridgeAddress = &self.bridge.address;
        let plan = ClaudeCode.command(&Launch {
            model: Some("claude-sonnet-4-5"),
            cwd: self.cwd.path(),
            home: self.home.path(),
            system_prompt: SYSTEM_PROMPT,
            prompt,
            resume,
            bridge: address,
            options: &options,
            base_url: Some(&fake.base_url),
        });
        for (path, contents) in &plan.files {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
        let _slot = SLOTS.acquire().await.unwrap();
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(&plan.args)
            .current_dir(self.cwd.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.user_home.path())
            .env("ANTHROPIC_API_KEY", API_KEY)
            .envs(plan.env.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command.spawn().unwrap();
        let group = child
            .id()
            .and_then(|id| rustix::process::Pid::from_raw(id as i32));
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(plan.stdin.as_deref().unwrap_or_default().as_bytes())
            .await
            .unwrap();
        drop(stdin);
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let mut parser = ClaudeCode.parser();
        let mut run = Run::default();
        let read = async {
            let mut lines = BufReader::new(stdout).lines();
            while let Some(line) = lines.next_line().await.unwrap() {
                run.events.extend(parser.line(&line));
                run.stdout.push(line);
            }
            let mut text = String::new();
            tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut text)
                .await
                .unwrap();
            run.stderr = text;
            child.wait().await.unwrap()
        };
        let finished = tokio::time::timeout(START_LIMIT, read).await;
        if let Some(group) = group {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let status = finished.unwrap_or_else(|_| {
            panic!(
                "claude did not finish within {START_LIMIT:?}: {:#?}",
                run.stdout
            )
        });
        assert!(
            status.success(),
            "claude failed ({status}): {}\n{:#?}",
            run.stderr,
            run.stdout
        );
        run
    }
}

#[derive(Default)]
struct Run {
    events: Vec<CliEvent>,
    stdout: Vec<String>,
    stderr: String,
}

impl Run {
    fn text(&self) -> String {
        self.events
            .iter()
            .filter_map(|event| match event {
                CliEvent::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    fn session(&self) -> String {
        match self.events.first() {
            Some(CliEvent::Session(id)) => id.clone(),
            other => panic!("the first event is not the session: {other:?}"),
        }
    }

    /// The one total usage, with its cost.
    fn usage(&self) -> (massgen::protocol::Usage, Option<f64>) {
        match self.events.last() {
            Some(CliEvent::Usage {
                usage,
                cost_usd,
                total: true,
            }) => (*usage, *cost_usd),
            other => panic!("the last event is not the total usage: {other:?}"),
        }
    }
}

/// What the fake server said it used, over the main conversation.
fn reported_output(fake: &FakeModel) -> u64 {
    fake.conversation()
        .iter()
        .map(|request| request.usage.1)
        .sum()
}

#[tokio::test]
async fn streams_text_and_reports_the_session_and_its_usage() {
    let Some(agent) = Agent::new().await else {
        return;
    };
    let fake = FakeModel::start(vec![Step::Text(
        "The answer is forty-two, as computed.".into(),
    )]);
    let run = agent.run(&fake, "What is six times seven?", None).await;

    assert_eq!(run.text(), "The answer is forty-two, as computed.");
    let text_deltas = run
        .events
        .iter()
        .filter(|e| matches!(e, CliEvent::Text(_)))
        .count();
    assert_eq!(
        text_deltas, 3,
        "the text streams as the server's three deltas"
    );
    assert!(!run.session().is_empty());
    let (usage, cost) = run.usage();
    assert_eq!(usage.output_tokens, reported_output(&fake));
    assert!(usage.input_tokens > 0);
    assert!(cost.is_some_and(|cost| cost > 0.0), "{cost:?}");

    let conversation = fake.conversation();
    assert_eq!(conversation.len(), 1);
    // With non-essential traffic off the CLI makes no side requests at all.
    assert_eq!(fake.requests().len(), 1, "{:?}", fake.requests());
    let request = &conversation[0];
    assert_eq!(request.path, "/v1/messages?beta=true");
    assert_eq!(request.header("x-api-key"), Some(API_KEY));
    assert_eq!(request.body["model"], "claude-sonnet-4-5");
    assert!(request.text().contains(SYSTEM_PROMPT));
    assert!(request.text().contains("What is six times seven?"));
    assert!(
        request
            .tool_names()
            .contains(&"mcp__massgen__vote".to_owned())
    );
    assert!(
        !request
            .tool_names()
            .iter()
            .any(|tool| tool == "ToolSearch" || tool == "Agent")
    );
}

#[tokio::test]
async fn its_own_shell_tool_writes_a_file_in_the_workspace_and_reads_as_events_in_order() {
    let Some(agent) = Agent::new().await else {
        return;
    };
    let command = "echo made-by-claude > made.txt";
    let fake = FakeModel::start(vec![
        Step::Call {
            tool: "Bash".into(),
            arguments: json!({"command": command, "description": "Make a file"}),
        },
        Step::Text("Made it.".into()),
    ]);
    let run = agent.run(&fake, "Make a file called made.txt.", None).await;

    let made = std::fs::read_to_string(agent.cwd().join("made.txt")).unwrap();
    assert_eq!(made.trim(), "made-by-claude");
    let conversation = fake.conversation();
    assert_eq!(conversation.len(), 2);
    assert_eq!(conversation[1].tool_results(), 1);

    let Some(CliEvent::ToolStarted { id, .. }) = run.events.get(1) else {
        panic!("the second event is not the tool: {:?}", run.events);
    };
    let mut expected = vec![
        CliEvent::Session(run.session()),
        CliEvent::ToolStarted {
            id: id.clone(),
            name: "Bash".into(),
            server: None,
            input: json!({"command": command, "description": "Make a file"}).to_string(),
        },
        CliEvent::ToolFinished {
            id: id.clone(),
            name: "Bash".into(),
            server: None,
            output: "(Bash completed with no output)".into(),
            ok: true,
        },
    ];
    // "Made it." as the server streamed it, in three deltas.
    expected.extend(["Mad", "e i", "t."].map(|piece| CliEvent::Text(piece.into())));
    assert_eq!(run.events[..run.events.len() - 1], expected);
    assert_eq!(run.usage().0.output_tokens, reported_output(&fake));
}

#[tokio::test]
async fn a_massgen_tool_is_called_over_the_bridge_with_its_token() {
    let Some(agent) = Agent::new().await else {
        return;
    };
    let fake = FakeModel::start(vec![
        Step::Call {
            tool: "vote".into(),
            arguments: json!({"agent_id": "agent_b"}),
        },
        Step::Text("Voted.".into()),
    ]);
    let run = agent.run(&fake, "Vote for the best answer.", None).await;

    assert_eq!(
        *agent.votes.0.lock().unwrap(),
        [json!({"agent_id": "agent_b"})]
    );
    let conversation = fake.conversation();
    assert_eq!(conversation.len(), 2);
    assert!(conversation[1].text().contains("vote recorded for agent_b"));
    // The bridge reports its own calls; the CLI's report of them is dropped.
    assert!(
        !run.events
            .iter()
            .any(|event| matches!(event, CliEvent::ToolStarted { .. }))
    );
    assert_eq!(run.text(), "Voted.");
}

#[tokio::test]
async fn a_second_start_resumes_the_session_and_the_cli_resends_the_history() {
    let Some(agent) = Agent::new().await else {
        return;
    };
    let fake = FakeModel::start(vec![
        Step::Text("First reply.".into()),
        Step::Text("Second reply.".into()),
    ]);
    let first = agent
        .run(&fake, "First question, about apples.", None)
        .await;
    let session = first.session();
    let second = agent
        .run(&fake, "Second question, about pears.", Some(&session))
        .await;

    assert_eq!(second.session(), session);
    assert_eq!(second.text(), "Second reply.");
    let conversation = fake.conversation();
    assert_eq!(conversation.len(), 2);
    let resumed = &conversation[1];
    // The Messages API keeps no state: the CLI sends the first start's turn again, from
    // the session it stored in the agent's home.
    assert!(resumed.text().contains("First question, about apples."));
    assert!(resumed.text().contains("First reply."));
    assert!(resumed.text().contains("Second question, about pears."));
    assert_eq!(
        resumed.header("x-claude-code-session-id"),
        Some(session.as_str())
    );
    let stored = agent.home.path().join("projects");
    assert!(stored.is_dir(), "sessions are kept in the agent's home");
    // Each start reports its own calls only.
    assert_eq!(second.usage().0.output_tokens, resumed.usage.1);
    assert!(
        first.stderr.is_empty() && second.stderr.is_empty(),
        "{}",
        second.stderr
    );
}
