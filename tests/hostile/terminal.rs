//! Hostile: model text full of terminal escapes (clear screen, OSC 52 clipboard, OSC 8
//! hidden links, the C1 CSI, BEL, backspace, a bidi override) must reach neither the
//! `plain` nor the `quiet` display as anything a terminal would interpret.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use crate::support::sandbox::{Sandbox, text};

/// Every attack at once, as a YAML double-quoted string.
const HOSTILE: &str = r#""\e[2J\e]52;c;ZXZpbA==\a\e]8;;http://evil.example\e\\click\e]8;;\e\\ \x9b31m red \a\b\b \u202Egnp.exe \e[1A\rspoof""#;

fn config() -> String {
    format!(
        "agents:\n  - id: solo\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
         first_token_ms: 0\n      reasoning: {HOSTILE}\n      text: {HOSTILE}\n      \
         answers: [{HOSTILE}]\n      final_answer: {HOSTILE}\n      \
         tool_calls: [{{name: {HOSTILE}, arguments: {{q: {HOSTILE}}}}}]\n"
    )
}

fn assert_inert(bytes: &[u8], what: &str) {
    let shown = text(bytes);
    for (byte, name) in [(0x1b, "ESC"), (0x07, "BEL"), (0x08, "BS"), (b'\r', "CR")] {
        assert!(!bytes.contains(&byte), "{what} holds {name}:\n{shown:?}");
    }
    for (ch, name) in [
        ('\u{9b}', "C1 CSI"),
        ('\u{202e}', "RLO"),
        ('\u{9d}', "C1 OSC"),
    ] {
        assert!(!shown.contains(ch), "{what} holds {name}:\n{shown:?}");
    }
}

fn run(display: &str) -> std::process::Output {
    let sandbox = Sandbox::new();
    sandbox.write("hostile.yaml", &config());
    sandbox
        .massgen()
        .args(["--config", "hostile.yaml", "--display", display])
        .arg("question \u{1b}]52;c;cXVlc3Rpb24=\u{7} \u{9b}2J end")
        .timeout(Duration::from_secs(60))
        .write_stdin("")
        .output()
        .unwrap()
}

#[test]
fn plain_display_prints_no_escapes_from_the_model() {
    let output = run("plain");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("── Final answer"),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert!(
        stdout.contains("gnp.exe"),
        "the text itself is kept: {stdout}"
    );
    assert_inert(&output.stdout, "plain stdout");
    assert_inert(&output.stderr, "plain stderr");
}

#[test]
fn quiet_display_prints_no_escapes_from_the_model() {
    let output = run("quiet");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("gnp.exe"),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert_inert(&output.stdout, "quiet stdout");
    assert_inert(&output.stderr, "quiet stderr");
}
