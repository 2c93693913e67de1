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
use serde_json::json;

use crate::harness;
use crate::support::{self, Scenario};

/// The longest a whole turn may take before the test fails.
pub const TURN_LIMIT: Duration = Duration::from_secs(240);

/// What the CLI writes in its answer; seeing it among the current answers means it has
/// answered.
pub const ANSWER_MARK: &str = "CLI-ANSWER-42";
pub const PRESENTED: &str = "Presented by the CLI: 6 times 7 is 42.";

/// What the model decides, from the request it got: present when asked to; stop once its
/// workflow call was recorded; vote for its own answer (agent1) once it is among the
/// current answers; before that, run the shell, then the MCP `echo` tool, then answer.
/// `window` is the conversation since massgen's latest round prompt, as text (a resumed
/// session holds earlier turns before it).
pub enum Move {
    Shell,
    Echo,
    Answer,
    Vote,
    Present,
    Done,
}

pub fn decide(window: &str) -> Move {
    if window.contains("VOTING RESULTS:") {
        Move::Present
    } else if window.contains("Your work for this round is done") {
        Move::Done
    } else if window.contains(&answer_mark(window)) {
        Move::Vote
    } else if !window.contains("shell-ok") {
        Move::Shell
    } else if !window.contains("echo-from-the-cli") {
        Move::Echo
    } else {
        Move::Answer
    }
}

/// The items of a conversation from the last one carrying massgen's round prompt on, as
/// text.
pub fn window_of(items: &[serde_json::Value]) -> String {
    let start = items
        .iter()
        .rposition(|item| item.to_string().contains("<ORIGINAL MESSAGE>"))
        .unwrap_or(0);
    serde_json::Value::Array(items[start..].to_vec()).to_string()
}

/// What the model does next, in provider-neutral form: call a tool (named as massgen or
/// the CLI names it) or say something.
pub enum Act {
    Call(String, serde_json::Value),
    Say(String),
}

/// [`decide`] as an act, with the CLI's own shell tool and the name of its command
/// argument.
pub fn act(window: &str, shell_tool: &str, command_key: &str) -> Act {
    match decide(window) {
        Move::Shell => Act::Call(
            shell_tool.into(),
            json!({ command_key: "echo shell-ok > shell.txt" }),
        ),
        Move::Echo => Act::Call("echo".into(), echo_arguments()),
        Move::Answer => Act::Call("new_answer".into(), answer_arguments(window)),
        Move::Vote => Act::Call("vote".into(), vote_arguments()),
        Move::Present => Act::Say(PRESENTED.into()),
        Move::Done => Act::Say("done.".into()),
    }
}

pub fn vote_arguments() -> serde_json::Value {
    json!({"agent_id": "agent1", "reason": "it ran the shell and the echo tool"})
}

/// The answer names the question it answers, so a later turn's rounds tell it apart.
pub fn answer_mark(window: &str) -> String {
    let question = window
        .split("<ORIGINAL MESSAGE>")
        .nth(1)
        .and_then(|rest| rest.split("<END OF ORIGINAL MESSAGE>").next())
        .unwrap_or_default()
        .trim();
    format!("{ANSWER_MARK} for [{question}]")
}

pub fn answer_arguments(window: &str) -> serde_json::Value {
    json!({"content": format!("{}: 42.", answer_mark(window))})
}

pub fn echo_arguments() -> serde_json::Value {
    json!({"message": "echo-from-the-cli"})
}

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
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
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
    let workspaces = project.join(".massgen/workspaces");
    let workspace = std::fs::read_dir(&workspaces)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("cli_workspace"))
        })
        .expect("no CLI workspace");
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
