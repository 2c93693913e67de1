//! The real binary in a pseudo-terminal: the full-screen display starts on the offline demo,
//! runs a typed question to its final answer, takes keys, runs a second question, and gives
//! the terminal back; it shows a continued session's earlier turn in `/inspect` (and warns
//! when `--continue` took another config's session); a recorded turn replays in it step by
//! step; and a turn cancelled with Ctrl+C is saved in the session.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::Pty;

/// `/` after Esc, `?`, an exact alias and `/clear` never send a question to the models.
#[test]
fn commands_typed_after_esc_and_aliases_never_become_a_question() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x1b"); // Esc: leave the composer
    pty.press(b"/");
    pty.press(b"help\r");
    pty.wait_for(&["Keys and commands"], "/help after Esc opens help");
    pty.press(b"\x1b");
    pty.press(b"/v\r");
    pty.wait_for(&["Votes", "Esc close"], "/v runs as typed");
    pty.press(b"\x1b");
    pty.press(b"/clear\r");
    let confirm = pty.wait_for(&["again to confirm"], "/clear asks to be typed again");
    assert!(
        !confirm.contains("Turn 1"),
        "no question was sent:\n{confirm}"
    );
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
    assert!(
        !home.path().join(".massgen/massgen_logs").exists()
            || std::fs::read_dir(home.path().join(".massgen/massgen_logs"))
                .unwrap()
                .flatten()
                .all(|run| !run.path().join("turn_1").exists()),
        "no turn ran"
    );
}

#[test]
fn the_demo_runs_a_turn_takes_keys_and_restores_the_terminal() {
    let home = tempfile::tempdir().unwrap();
    // No --display: on a terminal the full-screen display is the default. `--debug` sends
    // tracing to `massgen_debug.log` in the run's log directory, never to the screen.
    let mut pty = Pty::start(home.path(), &["--debug"]);
    pty.wait_for(
        &["Type a question below", "scout", "scholar", "critic"],
        "welcome",
    );
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(
        &["Turn 1", "What is the capital of France?"],
        "turn started",
    );
    // The final answer fills the body when the turn ends.
    let done = pty.wait_for(&["wins", "Final answer ·", "f cards"], "final answer");
    assert!(done.contains("Answer. For"), "the whole answer:\n{done}");

    pty.press(b"\x1b[Z"); // Shift+Tab
    pty.wait_for(&["◉ Planning"], "mode changed");
    pty.press(b"\x1b[Z"); // to Execute, which opens the plan selector
    pty.wait_for(&["Select Plan", "No saved plans yet"], "selector");
    pty.press(b"\x1b[Z"); // back to Normal
    pty.wait_for(&["◉ Normal"], "normal again");
    pty.press(b"\x1b"); // Esc: leave the composer
    pty.press(b"v");
    pty.wait_for(&["Votes", "leader", "Esc close"], "votes modal");
    pty.press(b"\x1b");
    pty.press(b"c");
    pty.wait_for(&["Tokens and costs", "this turn"], "costs modal");
    pty.press(b"\x1b");
    let closed = pty.wait_for(&["Shift+Tab"], "modal closed");
    assert!(!closed.contains("Tokens and costs"), "{closed}");

    // A second question runs a second turn.
    pty.press(b"i");
    pty.press(b"And the capital of Germany?\r");
    pty.wait_for(
        &["Turn 2", "And the capital of Germany?"],
        "second turn started",
    );
    pty.wait_for(&["Idle", "wins"], "second turn finished");
    pty.press(b"\x1b");
    pty.press(b"q");

    let output = pty.finish();
    assert!(!output.contains("DEBUG"), "no log line reached the screen");
    let runs: Vec<_> = std::fs::read_dir(home.path().join(".massgen/massgen_logs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    let log = std::fs::read_to_string(runs[0].join("massgen_debug.log")).unwrap();
    assert!(log.contains("turn started"), "{log}");
}

/// The demo plans with a question to the user, the plan is approved in its modal and
/// carried out task by task, and Execute mode then lists it.
#[test]
fn planning_in_the_demo_asks_gets_approved_and_is_carried_out() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"\x1b[Z"); // Shift+Tab: Planning
    pty.wait_for(&["◉ Planning", "⋮ Esc → P options"], "planning mode");
    pty.press(b"Plan a picnic for twelve\r");
    pty.wait_for(&["Turn 1 · Planning", "Plan a picnic"], "planning turn");
    pty.wait_for(
        &["An agent asks you", "How should the result be delivered?"],
        "question modal",
    );
    pty.press(b" "); // choose the highlighted option
    pty.press(b"\r"); // and send it
    let approval = pty.wait_for(
        &["Plan Approval", "Tasks: 20", "Enter: execute plan"],
        "approval",
    );
    assert!(approval.contains("T001"), "{approval}");
    pty.press(b"\r");
    pty.wait_for(&["Turn 2 · Executing", "Plan a picnic"], "execution turn");
    pty.wait_for(&["Final answer", "wins", "Idle"], "execution finished");
    // The plan ran, so the bar is back to Normal (short, `◉ Norm`, beside the notice).
    pty.wait_for(&["◉ Norm", "back to Normal mode"], "normal again");
    // The final answer fills the body; `f` brings the cards back, with the plan's progress.
    pty.press(b"\x1b");
    pty.press(b"f");
    let done = pty.wait_for(&["20/20 tasks"], "the cards again");
    assert!(done.contains("completed"), "the plan is completed:\n{done}");
    // Two Shift+Tabs to the selector.
    for _ in 0..2 {
        pty.press(b"\x1b[Z");
    }
    pty.wait_for(
        &["Select Plan", "Latest (auto)", "(completed)"],
        "plan listed",
    );
    pty.press(b"\x1b");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
    let plans: Vec<_> = std::fs::read_dir(home.path().join(".massgen/plans"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(plans.len(), 1);
}

/// Two agents that answer at once (who answers before the other votes varies).
const INSTANT_AGENTS: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0}
  - id: b
    backend: {type: scripted, tokens_per_second: 0}
"#;

/// Runs `question` with `config` in the plain display, in `home`.
fn ask_plainly(home: &std::path::Path, config: &str, question: &str) {
    let first = std::process::Command::new(env!("CARGO_BIN_EXE_massgen"))
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .args(["--config", config, "--display", "plain", question])
        .output()
        .unwrap();
    assert!(first.status.success(), "{first:?}");
}

/// A turn asked in the plain display, then `--continue` in the full-screen one: `/inspect`
/// shows the earlier turn with its votes and final answer, read from its event log.
#[test]
fn a_continued_session_lists_its_earlier_turn_in_inspect() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("instant.yaml");
    std::fs::write(&config, INSTANT_AGENTS).unwrap();
    let config = config.to_str().unwrap();
    ask_plainly(home.path(), config, "What came first?");

    let mut pty = Pty::start(home.path(), &["--config", config, "--continue"]);
    let welcome = pty.wait_for(&["Continuing session_", "1 earlier turn"], "welcome");
    assert!(
        !welcome.contains("no earlier session ran"),
        "its own session, no warning:\n{welcome}"
    );
    pty.press(b"/inspect");
    pty.press(b" \r");
    pty.wait_for(
        &[
            "Turns of this session · 1",
            "Turn 1 · done",
            ".1 🏆",
            "scripted answer to: What came first?",
            "Votes",
            "The best answer available so far.",
            ".final by",
            "turn total",
        ],
        "inspect",
    );
    pty.press(b"\x1b");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}

/// `--continue` with a config no earlier session ran goes on with the newest session, and
/// the full-screen display says so on its welcome view, not only in the timeline.
#[test]
fn continuing_another_configs_session_warns_on_the_welcome_view() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("first.yaml"), INSTANT_AGENTS).unwrap();
    std::fs::write(home.path().join("other.yaml"), INSTANT_AGENTS).unwrap();
    ask_plainly(home.path(), "first.yaml", "What came first?");

    let mut pty = Pty::start(home.path(), &["--config", "other.yaml", "--continue"]);
    pty.wait_for(
        &[
            "Continuing session_",
            "1 earlier turn",
            "⚠ no earlier session ran",
            "other.yaml: continuing the newest session",
            "first.yaml (--session-id ID picks another",
        ],
        "the welcome view warns",
    );
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}

#[test]
fn a_recorded_turn_replays_step_by_step_and_refuses_questions() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("solo.yaml"),
        "agent:\n  id: solo\n  backend: {type: scripted, tokens_per_second: 0, answer: \"Recorded answer\"}\n",
    )
    .unwrap();
    let recorded = std::process::Command::new(env!("CARGO_BIN_EXE_massgen"))
        .current_dir(home.path())
        .env("HOME", home.path())
        .args([
            "--config",
            "solo.yaml",
            "--display",
            "plain",
            "Recorded question?",
        ])
        .output()
        .unwrap();
    assert!(recorded.status.success());
    let sessions = home.path().join(".massgen/sessions");
    let session_dir = std::fs::read_dir(sessions)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();

    let mut pty = Pty::start(
        home.path(),
        &["replay", session_dir.to_str().unwrap(), "--step"],
    );
    pty.wait_for(
        &[
            "Replay",
            "step by step",
            "playing",
            "Recorded question?",
            "n: next step",
        ],
        "the first step",
    );
    for _ in 0..80 {
        pty.send(b"n");
    }
    pty.wait_for(
        &["finished", "solo wins", "Recorded answer"],
        "every step played",
    );
    pty.press(b"i");
    pty.press(b"A new question\r");
    pty.wait_for(&["nothing is sent to a model"], "the question is refused");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish();
}

/// `a` answers at once; `b` streams a word a second, so the turn is still running long after
/// `a`'s answer is in.
const ONE_FAST_ONE_SLOW: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, answer: "Paris, said a"}
  - id: b
    backend: {type: scripted, tokens_per_second: 1}
"#;

/// A turn cancelled with Ctrl+C ends the session with exit code 4, as in plain, even when
/// the user quits normally afterwards; the cancelled turn is saved in the session: its
/// question, marked incomplete, with the answer given before the cancel.
#[test]
fn quitting_after_a_cancelled_turn_exits_4_and_the_turn_is_saved() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("mixed.yaml"), ONE_FAST_ONE_SLOW).unwrap();
    let mut pty = Pty::start(home.path(), &["--config", "mixed.yaml"]);
    pty.wait_for(&["Type a question below"], "welcome");
    pty.press(b"What is the capital of France?\r");
    pty.wait_for(
        &["Turn 1", "agent1.1", "streaming"],
        "a answered, b still works",
    );
    pty.press(b"\x03");
    pty.wait_for(&["Idle", "turn cancelled"], "the turn was cancelled");
    pty.press(b"\x1b");
    pty.press(b"q");
    pty.finish_with(4);

    let sessions: Vec<_> = std::fs::read_dir(home.path().join(".massgen/sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let turn = sessions[0].join("turn_1");
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(turn.join(name)).unwrap()).unwrap()
    };
    let metadata = read("metadata.json");
    assert_eq!(metadata["task"], "What is the capital of France?");
    assert_eq!(metadata["status"], "incomplete", "{metadata}");
    assert!(!turn.join("answer.txt").exists(), "no final answer");
    let partial = read("partial_answers.json");
    assert_eq!(partial["a"], "Paris, said a", "{partial}");
}
