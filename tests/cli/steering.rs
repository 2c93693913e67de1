//! Steering a headless run through `--inbox-dir`: `RUNTIME_INBOX:` names the inbox, a
//! message dropped into it mid-run reaches every agent with its next tool result, a
//! targeted one only its agent, and a message for nobody known is a warning.

use std::io::BufRead;
use std::path::Path;

use massgen::protocol::{Event, EventMsg};

use crate::common::{read_until_containing, spawn_reading};
use crate::support::sandbox::{Sandbox, text};

/// Two agents that run a slow command a few times in each round before answering.
const SLOW_PAIR: &str = "\
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace_a
      enable_mcp_command_line: true
      answers: [\"done a\"]
      tool_calls: [{name: mcp__command_line__execute_command, arguments: {command: \"sleep 0.3\"}}]
      tool_call_rounds: 8
  - id: b
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace_b
      enable_mcp_command_line: true
      answers: [\"done b\"]
      vote_for: a
      tool_calls: [{name: mcp__command_line__execute_command, arguments: {command: \"sleep 0.3\"}}]
      tool_call_rounds: 8
";

/// Writes a message the way MassGen's `send_steering_message` does: a `.tmp`, renamed.
fn drop_message(inbox: &Path, name: &str, json: &str) {
    let temporary = inbox.join(format!("{name}.tmp"));
    std::fs::write(&temporary, json).unwrap();
    std::fs::rename(&temporary, inbox.join(name)).unwrap();
}

/// Every event of the run's first turn.
fn events(sandbox: &Sandbox) -> Vec<Event> {
    let path = sandbox.run_log_dir().join("turn_1/attempt_1/events.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The agents a text was delivered to, in order.
fn delivered_to(events: &[Event], wanted: &str) -> Vec<String> {
    let mut agents: Vec<String> = events
        .iter()
        .filter(
            |event| matches!(&event.msg, EventMsg::HumanInputDelivered { text } if text == wanted),
        )
        .filter_map(|event| event.agent.as_ref().map(ToString::to_string))
        .collect();
    agents.sort();
    agents
}

#[test]
fn inbox_messages_reach_their_agents_mid_run() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", SLOW_PAIR);
    let (mut child, mut stdout) = spawn_reading(
        &sandbox,
        &[
            "--automation",
            "--config",
            "run.yaml",
            "--inbox-dir",
            "inbox",
            "q",
        ],
    );
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let inbox = sandbox.root.join("inbox").canonicalize().unwrap();
    assert_eq!(
        first.trim_end(),
        format!("RUNTIME_INBOX: {}", inbox.display())
    );
    let mut seen = String::new();
    read_until_containing(&mut stdout, "[Coordination in progress", &mut seen);
    drop_message(
        &inbox,
        "msg_0001.json",
        r#"{"content": "STEER ALL", "source": "test"}"#,
    );
    drop_message(
        &inbox,
        "msg_0002.json",
        r#"{"content": "STEER B", "target_agents": ["b"]}"#,
    );
    drop_message(
        &inbox,
        "msg_0003.json",
        r#"{"content": "STEER NOBODY", "target_agents": ["zed"]}"#,
    );
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{seen}{rest}{stderr}");
    assert!(rest.contains("WINNER: a"), "{rest}");
    let events = events(&sandbox);
    assert_eq!(delivered_to(&events, "STEER ALL"), ["a", "b"]);
    assert_eq!(delivered_to(&events, "STEER B"), ["b"]);
    assert!(delivered_to(&events, "STEER NOBODY").is_empty());
    assert!(
        stderr.contains("msg_0003.json names unknown agents zed (agents: a, b)"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&inbox).unwrap().collect();
    assert!(left.is_empty(), "every message was consumed: {left:?}");
}

#[test]
fn without_automation_the_inbox_is_made_but_not_printed() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "run.yaml",
        "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0, answers: [\"ok\"]}\n",
    );
    let output = sandbox
        .massgen()
        .env("MASSGEN_RUNTIME_INBOX_DIR", "from_env")
        .args(["--display", "plain", "--config", "run.yaml", "q"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(!text(&output.stdout).contains("RUNTIME_INBOX"));
    assert!(sandbox.root.join("from_env").is_dir());
}
