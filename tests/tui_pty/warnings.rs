//! Config warnings on every display: the full-screen app shows them on its welcome view and
//! in `/status` rather than printing them under its alternate screen (where they surfaced
//! only after quitting), and the run's `massgen.log` keeps them whichever display ran.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::support::pty::{Launch, Pty};

/// Two typos: a top-level key and an agent's system message, each only a warning.
const TYPO_CONFIG: &str = r#"
orchestrater:
  timeout: 10
agents:
  - id: a
    backend: {type: scripted}
    sytem_message: be brief
"#;

/// A project directory under `home` holding the typo config.
fn project_with_typos(home: &Path) -> PathBuf {
    let project = home.join("proj");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("typos.yaml"), TYPO_CONFIG.trim_start()).unwrap();
    project
}

/// The text of the only run's `massgen.log` under `project`.
fn run_log(project: &Path) -> String {
    let runs: Vec<PathBuf> = std::fs::read_dir(project.join(".massgen/massgen_logs"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    std::fs::read_to_string(runs[0].join("massgen.log")).unwrap()
}

fn assert_logs_both_typos(log: &str) {
    for key in [
        "unknown key `orchestrater`",
        "unknown key `agents[0].sytem_message`",
    ] {
        assert!(
            log.lines()
                .any(|line| line.contains("WARN") && line.contains(key)),
            "massgen.log lacks {key}:\n{log}"
        );
    }
}

#[test]
fn config_typos_show_on_the_welcome_view_and_in_status_and_reach_the_log() {
    let home = tempfile::tempdir().unwrap();
    let project = project_with_typos(home.path());
    let mut pty = Pty::launch(
        home.path(),
        &["--config", "typos.yaml"],
        Launch::default().in_dir(&project),
    );
    let welcome = pty.wait_for(
        &[
            "⚠ 2 warnings",
            "unknown key `orchestrater`; did you mean `orchestrator`?",
            "unknown key `agents[0].sytem_message`; did you mean `system_message`?",
            "Type a question below",
        ],
        "the welcome view lists the config's warnings",
    );
    assert!(welcome.contains("typos.yaml:1:1"), "{welcome}");
    pty.press(b"/status\r");
    pty.wait_for(
        &[
            "System status",
            "2 warnings when the run started",
            "⚠ /",
            "unknown key `orchestrater`",
        ],
        "/status lists every warning",
    );
    pty.press(b"\x1b");
    let output = pty.quit();
    let (before_full_screen, _) = output
        .split_once("\x1b[?1049h")
        .expect("the app entered the alternate screen");
    assert!(
        !before_full_screen.contains("unknown key"),
        "printed under the alternate screen: {before_full_screen:?}"
    );
    let (_, after_full_screen) = output
        .rsplit_once("\x1b[?1049l")
        .expect("the app left the alternate screen");
    assert!(
        !after_full_screen.contains("unknown key"),
        "printed only after quitting: {after_full_screen:?}"
    );
    assert_logs_both_typos(&run_log(&project));
}

#[test]
fn the_plain_display_prints_config_typos_and_logs_them() {
    let home = tempfile::tempdir().unwrap();
    let project = project_with_typos(home.path());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args(["--config", "typos.yaml", "--display", "plain", "hi"])
        .current_dir(&project)
        .env_clear()
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning: ")
            && stderr.contains("typos.yaml:1:1: ignored: unknown key `orchestrater`"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("unknown key").count(), 2, "{stderr}");
    assert_logs_both_typos(&run_log(&project));
}
