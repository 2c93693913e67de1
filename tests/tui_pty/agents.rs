//! The real binary in a pseudo-terminal: `/agents` adds an agent, saves the config and
//! applies it to the next turn; `--quickstart` with no key starts on offline agents, a
//! model is picked, the config saved and the first question answered. Both files pass
//! `massgen --validate`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use crate::support::pty::Pty;

/// `massgen --validate path` in `home` succeeds.
fn validates(home: &Path, path: &str) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args(["--validate", path])
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "--validate {path}: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn slash_agents_adds_an_agent_saves_it_and_the_next_turn_uses_it() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &[]);
    pty.wait_for(&["Type a question below", "scout"], "welcome");
    pty.press(b"/agents\r");
    pty.wait_for(
        &["Agents for the next turn · 3", "u use them"],
        "agents view",
    );
    pty.press(b"a");
    pty.wait_for(&["added agent: Enter edits it"], "agent added");
    // Its system message: Enter, down two rows, Enter, type, Enter, back.
    pty.press(b"\r");
    pty.wait_for(&["Agent 4 of 4: agent"], "the new agent");
    pty.press(b"\x1b[B");
    pty.press(b"\x1b[B");
    pty.press(b"\r");
    pty.press(b"You double-check everything.");
    pty.press(b"\r");
    pty.press(b"\x1b");
    pty.wait_for(&["You double-check everything."], "system message set");
    pty.press(b"s");
    pty.wait_for(&["Save to: .massgen/agents.yaml"], "save path");
    pty.press(b"\r");
    pty.wait_for(&["saved .massgen/agents.yaml"], "saved");
    // Saving again asks before replacing the file.
    pty.press(b"s");
    pty.press(b"\r");
    pty.wait_for(&["exists: y replaces it"], "overwrite asked");
    pty.press(b"n");
    pty.press(b"\x1b");
    pty.press(b"u");
    pty.wait_for(
        &["the next turn runs with scout, scholar, critic, agent"],
        "applied",
    );
    pty.press(b"What is 2+2?\r");
    pty.wait_for(&["Turn 1", "What is 2+2?"], "turn started");
    pty.wait_for(&["Idle", "wins", "Final answer"], "turn finished");
    // The final answer fills the body; `f` shows the cards (four at 140×40: a 2×2 grid),
    // the added agent's among them.
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_for(&["agent · scripted · R"], "the added agent's card");
    pty.quit();
    let saved = std::fs::read_to_string(home.path().join(".massgen/agents.yaml")).unwrap();
    assert!(saved.contains("  - id: agent\n"), "{saved}");
    assert!(saved.contains("You double-check everything."), "{saved}");
    validates(home.path(), ".massgen/agents.yaml");
}

#[test]
fn quickstart_with_no_key_picks_a_model_saves_the_config_and_answers() {
    let home = tempfile::tempdir().unwrap();
    let mut pty = Pty::start(home.path(), &["--quickstart"]);
    pty.wait_for(
        &[
            "No provider API key found",
            "Quickstart · 3 agents",
            "s save and start",
        ],
        "quickstart view",
    );
    // The first agent's model: Enter (type row), Down (model row), Enter (the list).
    pty.press(b"\r");
    pty.press(b"\x1b[B");
    pty.press(b"\r");
    pty.wait_for(&["no model list", "scripted-deep"], "model choices");
    pty.press(b"critic");
    pty.press(b"\r");
    pty.press(b"\x1b");
    pty.wait_for(&["scout    scripted  scripted-critic"], "model chosen");
    pty.press(b"s");
    pty.wait_for(&["Save to: .massgen/config.yaml"], "save path");
    pty.press(b"\r");
    pty.wait_for(
        &["saved .massgen/config.yaml: ask your question"],
        "saved and started",
    );
    pty.press(b"What is 2+2?\r");
    pty.wait_for(&["Turn 1", "What is 2+2?"], "turn started");
    pty.wait_for(&["Idle", "wins"], "turn finished");
    pty.quit();
    let saved = std::fs::read_to_string(home.path().join(".massgen/config.yaml")).unwrap();
    assert!(saved.contains("model: scripted-critic"), "{saved}");
    validates(home.path(), ".massgen/config.yaml");
}
