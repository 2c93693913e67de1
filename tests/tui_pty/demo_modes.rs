//! The offline demo in the full-screen display shows what Planning and Execute did: the
//! answer to scholar's question stays in its card and shapes its final answer, the plan
//! has the default depth's size, and the executed plan's final answer lists its tasks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

#[test]
fn the_demo_shows_the_users_answer_the_plans_size_and_the_executed_tasks() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x1b[Z"); // Shift+Tab: Planning
    pty.wait_for(&["◉ Planning"], "planning mode");
    pty.press(b"Plan a picnic for twelve\r");
    pty.wait_for(
        &["An agent asks you", "How should the result be delivered?"],
        "question modal",
    );
    pty.press(b"\x1b[B"); // the second option
    pty.press(b" ");
    pty.press(b"\r");
    let card = pty.wait_for(
        &["💬 you answered: A step-by-step guide"],
        "the answer in scholar's card",
    );
    assert!(
        card.contains("📣 asks you: How should the result be"),
        "under its question:\n{card}"
    );
    let approval = pty.wait_for(
        &["Plan Approval", "Tasks: 20", "Enter: execute plan"],
        "a medium plan of 20 tasks",
    );
    assert!(approval.contains("T020"), "{approval}");
    pty.press(b"\r"); // execute it
    pty.wait_for(&["Turn 2 · Executing", "Plan a picnic"], "execution turn");
    let report = pty.wait_for(
        &[
            "Executed plan plan_",
            "20 of 20 tasks done.",
            "T001 Pin down the goals",
            "Delivered as you chose: A step-by-step guide.",
        ],
        "the executed plan's answer, shaped by the reply",
    );
    assert!(report.contains("… and 10 more, each ✓"), "{report}");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}
