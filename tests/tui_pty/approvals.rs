//! The real binary in a pseudo-terminal: an agent whose config asks before every command
//! calls `execute_command` twice; the approval view shows each call, `y` lets the first
//! run and `n` denies the second, and `/approvals` lists both decisions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

/// One scripted agent that runs two commands under a rule that asks before any command.
const CONFIG: &str = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    cwd: workspace
    enable_mcp_command_line: true
    tool_calls:
      - {name: mcp__command_line__execute_command, arguments: {command: "printf 'ran-%s' first"}}
      - {name: mcp__command_line__execute_command, arguments: {command: "printf 'ran-%s' second"}}
    answer: "Both commands were tried."
    permissions:
      rules:
        ask: ["command(*)"]
"#;

/// The status bar: the screen's last row.
fn status_bar(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

#[test]
fn the_first_command_is_approved_and_runs_and_the_second_is_denied() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("run.yaml"), CONFIG).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "run.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"Run both commands\r");
    let first = pty.wait_for(
        &[
            "Approve this tool call?",
            "$ printf 'ran-%s' first",
            "command(*)",
        ],
        "the first call waits",
    );
    assert!(
        status_bar(&first).contains("⚠ 1 approval waiting"),
        "{first}"
    );
    pty.press(b"y");
    pty.wait_for(
        &["Approve this tool call?", "$ printf 'ran-%s' second"],
        "the second call waits",
    );
    pty.press(b"n");
    pty.wait_until(
        |screen| status_bar(screen).contains("Idle"),
        "the turn ends",
    );
    let ended = pty.text();
    assert!(!ended.contains("approval waiting"), "{ended}");
    pty.press(b"\x1b");
    pty.press(b"/approvals\r");
    let listed = pty.wait_for(
        &[
            "Approvals · 2 decisions",
            "✓ allowed by you · once",
            "$ printf 'ran-%s' first",
            "✗ denied by you",
            "$ printf 'ran-%s' second",
        ],
        "both decisions listed",
    );
    let allowed = listed.find("' first").unwrap();
    let denied = listed.find("' second").unwrap();
    assert!(allowed < denied, "newest last: {listed}");
    pty.press(b"\x1b"); // the decisions close
    pty.press(b"\x1b"); // out of the composer
    pty.press(b"f"); // the cards
    pty.press(b"d"); // the agent's tool calls in full, on the newest
    let denied = pty.wait_for(&["' second"], "the denied call");
    assert!(!denied.contains("ran-second"), "it never ran: {denied}");
    pty.press(b"\x1b[D"); // ← the first call
    pty.wait_for(&["ran-first"], "the approved command's output");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}
