//! Whole turns with an agent CLI beside an API agent: the real CLI, started by massgen's
//! backend against an in-test model server, answers with `new_answer`, runs its own shell
//! tool, calls an MCP tool from its config through massgen's bridge, votes with `vote`,
//! and presents the final answer; its text streams into its card, its usage reaches the
//! events and the logs.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use massgen::backend::build_backends;
use massgen::config::Env;
use massgen::orchestrator::{self, RuntimeOptions, ToolSetup};
use massgen::protocol::{Event, EventMsg, Mode, TurnOptions};

use crate::harness;
use crate::support::{self, Scenario};

/// The longest a whole turn may take before the test fails.
pub const TURN_LIMIT: Duration = Duration::from_secs(240);

pub use crate::script::{Act, PRESENTED, act, window_of};

/// A project with a `cli` agent of `backend_type` (its `extra` backend lines) and a
/// scripted `api` agent that answers and then votes for `cli`.
pub fn config_yaml(backend_type: &str, extra: &str, everything: &Path) -> String {
    format!(
        r#"
agents:
  - id: cli
    backend:
      type: {backend_type}
      cwd: cli_workspace
{extra}
      mcp_servers:
        - name: everything
          type: stdio
          command: {everything}
          args: ["stdio"]
  - id: api
    backend:
      type: scripted
      answers: ["The API agent thinks it is 42."]
      vote_for: cli
      vote_reason: "the CLI checked its work"
orchestrator:
  timeout:
    orchestrator_timeout_seconds: 600
"#,
        everything = everything.display()
    )
}

/// The environment massgen runs with: the pinned CLIs first on PATH, a stand-in home.
pub fn env_for(home: &Path) -> Env {
    let clis = harness::peers().join("node_modules/.bin");
    let path = std::env::join_paths(std::iter::once(clis).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let path = path.to_string_lossy().into_owned();
    let home = home.display().to_string();
    Env::from_pairs([("PATH", path.as_str()), ("HOME", home.as_str())])
}

/// One agent CLI as a test project names it.
pub struct Cli {
    pub backend_type: &'static str,
    pub program: &'static str,
    pub model: &'static str,
    pub api_key: &'static str,
}

pub const CLAUDE_CODE: Cli = Cli {
    backend_type: "claude_code",
    program: "claude",
    model: "claude-sonnet-4-5",
    api_key: "sk-ant-test-0000",
};
pub const CODEX: Cli = Cli {
    backend_type: "codex",
    program: "codex",
    model: "gpt-4.1",
    api_key: "sk-test-codex-0000",
};
pub const GEMINI_CLI: Cli = Cli {
    backend_type: "gemini_cli",
    program: "gemini",
    model: "gemini-2.5-flash",
    api_key: "test-gemini-key-0000",
};

/// What a test adds to the project's config: lines of the CLI's backend block, lines of
/// the `orchestrator:` block (indented), top-level sections.
#[derive(Default)]
pub struct Extra {
    pub backend: &'static str,
    pub orchestrator: &'static str,
    pub top: &'static str,
}

/// A running project: a `cli` agent of one CLI against a fake model server, beside the
/// scripted `api` agent, with a stand-in user home.
pub struct Project {
    pub scenario: Scenario,
    pub dir: PathBuf,
    _home: tempfile::TempDir,
}

impl Project {
    /// `None` (the test skips) when the CLI or the MCP peer is not installed.
    pub fn start(cli: &Cli, base_url: &str, extra: &Extra) -> Option<Self> {
        harness::peer(&format!("node_modules/.bin/{}", cli.program))?;
        let everything = harness::peer("node_modules/.bin/mcp-server-everything")?;
        let extra_lines = format!(
            "      model: {}\n      base_url: {base_url}\n      api_key: {}",
            cli.model, cli.api_key
        );
        let more = extra;
        let mut extra = extra_lines;
        for line in more.backend.lines() {
            extra.push_str(&format!("\n      {line}"));
        }
        let yaml = format!(
            "{}{}",
            config_yaml(cli.backend_type, &extra, &everything).replace(
                "orchestrator:\n",
                &format!("orchestrator:\n{}", more.orchestrator)
            ),
            more.top
        );
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let dir = project.path().to_path_buf();
        let scenario = start(project, &yaml, &env_for(home.path()));
        Some(Self {
            scenario,
            dir,
            _home: home,
        })
    }

    pub async fn ask(&mut self, question: &str) -> Vec<Event> {
        ask(&mut self.scenario, question).await
    }
}

/// Cancels a turn while the CLI runs `marker`; see [`cancel_while_running`].
pub async fn cancel_test(cli: &Cli, base_url: &str, marker: &str) {
    if let Some(project) = Project::start(cli, base_url, &Extra::default()) {
        cancel_while_running(project.scenario, marker).await;
    }
}

/// Starts massgen's runtime over `yaml` in `project`, with the agents' tools and logs.
pub fn start(project: tempfile::TempDir, yaml: &str, env: &Env) -> Scenario {
    let config = support::load(yaml);
    let backends = build_backends(&config, env).unwrap();
    let logs = massgen::session::RunLogDir::create(&project.path().join(".massgen")).unwrap();
    let handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::FromConfig {
            project_dir: project.path().to_path_buf(),
        },
        RuntimeOptions {
            logs: Some(logs),
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    Scenario {
        handle,
        dir: project,
        requests: Vec::new(),
    }
}

pub async fn ask(scenario: &mut Scenario, question: &str) -> Vec<Event> {
    tokio::time::timeout(
        TURN_LIMIT,
        scenario.submit(question, Mode::Normal, TurnOptions::default()),
    )
    .await
    .expect("the turn did not finish in time")
}

/// Checks everything the issue asks of one turn with a CLI agent, and returns the CLI's
/// workspace.
pub fn assert_whole_turn(events: &[Event], shell_tool: &str, project: &Path) -> PathBuf {
    support::assert_completed(events);
    let of_cli = |event: &&Event| {
        event
            .agent
            .as_ref()
            .is_some_and(|agent| agent.as_str() == "cli")
    };
    let cli: Vec<&Event> = events.iter().filter(of_cli).collect();
    assert!(
        cli.iter()
            .any(|event| matches!(&event.msg, EventMsg::TextDelta { .. })),
        "no text streamed into the CLI's card: {:#?}",
        support::transcript(events)
    );
    assert!(
        cli.iter()
            .any(|event| matches!(&event.msg, EventMsg::AnswerSubmitted { .. })),
        "the CLI gave no answer: {:#?}",
        support::transcript(events)
    );
    assert!(
        cli.iter()
            .any(|event| matches!(&event.msg, EventMsg::VoteCast { .. })),
        "the CLI cast no vote: {:#?}",
        support::transcript(events)
    );
    assert!(
        cli.iter().any(|event| matches!(&event.msg,
            EventMsg::ProviderTool(call) if call.tool == shell_tool && call.ok)),
        "the CLI's own `{shell_tool}` tool did not run: {:#?}",
        support::transcript(events)
    );
    assert!(
        cli.iter().any(|event| matches!(&event.msg,
            EventMsg::ToolCallEnd { tool, ok: true, output, .. }
                if tool == "mcp__everything__echo" && output.contains("echo-from-the-cli"))),
        "the CLI did not call the config's MCP tool: {:#?}",
        support::transcript(events)
    );
    assert_eq!(support::winner(events).as_deref(), Some("cli"));
    let (final_answer, _) = support::final_answer(events).expect("no final answer");
    assert!(final_answer.contains(PRESENTED), "{final_answer}");
    assert!(
        cli.iter().any(|event| matches!(&event.msg,
            EventMsg::Usage { usage, .. } if usage.input_tokens > 0 && usage.output_tokens > 0)),
        "no usage reported for the CLI"
    );
    let workspace = cli_workspace(project);
    assert_eq!(
        std::fs::read_to_string(workspace.join("shell.txt"))
            .unwrap_or_default()
            .trim(),
        "shell-ok",
        "the shell tool wrote nothing in the CLI's workspace"
    );
    workspace
}

/// The CLI's usage carries the cost it reported.
pub fn assert_costed(events: &[Event]) {
    let costed = events.iter().any(|event| {
        event
            .agent
            .as_ref()
            .is_some_and(|agent| agent.as_str() == "cli")
            && matches!(&event.msg, EventMsg::Usage { cost_usd: Some(cost), .. } if *cost > 0.0)
    });
    assert!(costed, "no cost reported for the CLI");
}

/// Stops the runtime, and checks turn 1's `metrics_summary.json` counts the CLI's tokens
/// and cost.
pub async fn assert_logged(scenario: Scenario) {
    let Scenario { handle, dir, .. } = scenario;
    handle.shutdown().await;
    let path = support::attempt_dir(dir.path(), 1).join("metrics_summary.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let metrics: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cli = &metrics["agents"]["cli"];
    assert!(
        cli["token_usage"]["input_tokens"]
            .as_u64()
            .unwrap_or_default()
            > 0
            && cli["estimated_cost"].as_f64().unwrap_or_default() > 0.0,
        "the metrics do not count the CLI's tokens and cost: {text}"
    );
}

/// The processes whose command line contains `needle`.
pub fn processes_running(needle: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|raw| String::from_utf8_lossy(&raw).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(needle))
        .collect()
}

/// Submits a question, waits until the CLI runs `marker` (its shell tool's command), then
/// cancels, and checks that neither the command nor the CLI survives the turn.
pub async fn cancel_while_running(mut scenario: Scenario, marker: &str) {
    let ops = scenario.handle.ops.clone();
    let started = tokio::spawn({
        let marker = marker.to_string();
        async move {
            let deadline = tokio::time::Instant::now() + TURN_LIMIT;
            while processes_running(&marker).is_empty() {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the CLI never ran `{marker}`"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            ops.send(massgen::protocol::Op::Cancel).await.unwrap();
        }
    });
    let events = tokio::time::timeout(
        TURN_LIMIT,
        scenario.submit("Wait for a while.", Mode::Normal, TurnOptions::default()),
    )
    .await
    .expect("the cancelled turn did not finish");
    started.await.unwrap();
    assert!(
        events
            .iter()
            .any(|event| matches!(&event.msg, EventMsg::TurnFinished { .. })),
        "{events:#?}"
    );
    let home = scenario.dir.path().display().to_string();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let left: Vec<String> = processes_running(marker)
            .into_iter()
            .chain(processes_running(&home))
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "processes left after the cancel: {left:#?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The CLI agent's workspace under the project.
pub fn cli_workspace(project: &Path) -> PathBuf {
    std::fs::read_dir(project.join(".massgen/workspaces"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("cli_workspace"))
        })
        .expect("no CLI workspace")
}

/// Turn 2's prompt, as massgen gave it to a resumed session: the new question only.
pub fn assert_new_prompt_only(prompt: &str) {
    assert!(prompt.contains("What is 6 times 8?"), "{prompt}");
    assert!(
        !prompt.contains("What is 6 times 7?"),
        "massgen resent turn 1 in its prompt: {prompt}"
    );
}
