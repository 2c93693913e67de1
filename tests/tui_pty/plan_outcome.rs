//! The real binary in a pseudo-terminal: a plan whose agents leave tasks open ends
//! `partial` with the count done in the notice, on the winner's card and in the plan
//! selector, and its task view shows each task's final status with no current task.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

/// Two scripted agents whose plan starts t2 blocked, with t3 waiting on it: only t1 can
/// be done.
const CONFIG: &str = "agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      vote_for: a
      plan: &plan
        - {id: t1, description: Lay the table}
        - {id: t2, description: Fetch the cake, status: blocked}
        - {id: t3, description: Light the candles, depends_on: [t2]}
  - id: b
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      vote_for: a
      plan: *plan
";

#[test]
fn a_plan_left_with_open_tasks_reads_partial_everywhere_in_the_tui() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("run.yaml"), CONFIG).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "run.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x1b[Z"); // Shift+Tab: Planning
    pty.wait_for(&["◉ Planning"], "planning mode");
    pty.press(b"Plan a party\r");
    pty.wait_for(&["Plan Approval", "Tasks: 3"], "approval");
    pty.press(b"\r");
    pty.wait_for(&["Turn 2 · Executing"], "execution turn");
    let ended = pty.wait_for(&["partial (1/3 tasks done): back to Normal mode"], "notice");
    assert!(!ended.contains("done: back to Normal"), "{ended}");
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_for(&["1/3 tasks · plan partial"], "the winner's card");
    for _ in 0..2 {
        pty.press(b"\x1b[Z");
    }
    pty.wait_for(
        &["Select Plan", "(partial)", "Tasks: 1/3 tasks done"],
        "selector",
    );
    pty.press(b"v");
    let view = pty.wait_for(&["✓ 1/3 · ◌ 1 blocked", "Light the candles"], "task view");
    assert!(!view.contains("← current"), "{view}");
    pty.press(b"\x1b");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}
