//! The real binary in a pseudo-terminal: Ctrl+P attaches the current directory (shown in
//! the status bar) and Ctrl+O overrides the final answer once voting is done — refused
//! before, and after the turn recorded in its event log and the session.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::{Launch, Pty};

/// Ctrl+O is refused before voting is done; Ctrl+P attaches the current directory to the
/// question; after the turn Ctrl+O picks another answer, which the event log and the
/// session record as the final answer.
#[test]
fn ctrl_p_attaches_the_directory_and_ctrl_o_overrides_the_final_answer() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let mut pty = Pty::launch(home.path(), &[], Launch::default().in_dir(&project));
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x0f"); // Ctrl+O
    pty.wait_for(&["override is available once voting is done"], "too early");
    pty.press(b"\x10"); // Ctrl+P
    pty.wait_for(&["~/proj [read]"], "the directory is attached");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(&["Turn 1"], "turn started");
    pty.wait_for(&["wins", "Final answer ·", "Idle"], "turn finished");
    pty.press(b"\x0f");
    let browser = pty.wait_for(
        &["Override: choose the final answer", "Enter: final answer"],
        "override browser",
    );
    assert!(browser.contains("🏆"), "the winner is marked:\n{browser}");
    pty.press(b"\x1b[D"); // ←: another answer
    pty.press(b"\r");
    let overridden = pty.wait_for(&["becomes the final answer"], "override sent");
    let label = overridden
        .lines()
        .find_map(|line| {
            line.split(" becomes the final answer")
                .next()
                .filter(|_| line.contains(" becomes the final answer"))
        })
        .and_then(|before| before.rsplit(' ').next())
        .map(str::to_string)
        .unwrap();
    pty.wait_for(
        &[&format!("({label})")],
        "the final view shows the chosen answer",
    );
    pty.press(b"\x1b");
    pty.press(b"f"); // back to the cards and the timeline
    pty.wait_for(
        &[&format!("override: final answer is {label}")],
        "the timeline shows the override",
    );
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
    let runs: Vec<_> = std::fs::read_dir(project.join(".massgen/massgen_logs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let events = std::fs::read_to_string(runs[0].join("turn_1/attempt_1/events.jsonl")).unwrap();
    let last = events.lines().last().unwrap();
    assert!(
        last.contains("final_overridden") && last.contains(&label),
        "{last}"
    );
    let sessions: Vec<_> = std::fs::read_dir(project.join(".massgen/sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let answer = std::fs::read_to_string(sessions[0].join("turn_1/answer.txt")).unwrap();
    let content = serde_json::from_str::<serde_json::Value>(last).unwrap()["msg"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(answer, content);
}
