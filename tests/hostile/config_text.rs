//! Hostile: config_text. `${VAR}`s and `.env` files cannot grow a config past its 16 MiB
//! cap (a huge or special `.env` is not read); config errors never echo what may be a key;
//! newlines, NUL, controls and bidi overrides from a config are shown escaped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;
use std::time::{Duration, Instant};

use super::config_limits::{agents, assert_refused, describe, run};
use super::support::sandbox::{Sandbox, text};

#[test]
fn variables_cannot_grow_a_config_past_its_cap() {
    let sandbox = Sandbox::new();
    // 900 KB from .env, used by 20 agents: 18 MB once expanded.
    sandbox.write(".env", &format!("BIG={}\n", "x".repeat(900_000)));
    let mut yaml = String::from("agents:\n");
    for index in 0..20 {
        yaml.push_str(&format!(
            "  - id: a{index}\n    system_message: \"${{BIG}}\"\n    backend: {{type: scripted, \
             tokens_per_second: 0, answer: ok}}\n"
        ));
    }
    sandbox.write("big.yaml", &yaml);
    for args in [
        &["--validate", "big.yaml"][..],
        &[
            "--config",
            "big.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        assert_refused(
            &run(&sandbox, args),
            &["with `${BIG}` expanded, the config is larger than 16 MiB"],
        );
    }
}

#[test]
fn a_huge_or_special_dotenv_is_not_read() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "c.yaml",
        &agents(1, "").replace("answer: ok", "answer: \"${BIG}\""),
    );
    sandbox.write(".env", &format!("BIG={}\n", "y".repeat(20 << 20)));
    let started = Instant::now();
    let output = run(&sandbox, &["--validate", "c.yaml"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(".env: not read") && stderr.contains("larger than 1 MiB"),
        "{}",
        describe(&output)
    );
    assert!(
        stderr.contains("environment variable `BIG` is not set"),
        "{}",
        describe(&output)
    );
    #[cfg(unix)]
    {
        std::fs::remove_file(sandbox.root.join(".env")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", sandbox.root.join(".env")).unwrap();
        let started = Instant::now();
        let output = run(&sandbox, &["--validate", "c.yaml"]);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            text(&output.stderr).contains("not a regular file"),
            "{}",
            describe(&output)
        );
    }
}

#[test]
fn an_unterminated_reference_in_a_key_is_not_echoed() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "key.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      \
         api_key: \"sk-abc123SECRETxyz${def\"\n",
    );
    for args in [
        &["--validate", "key.yaml"][..],
        &[
            "--config",
            "key.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        let output = run(&sandbox, args);
        assert_refused(
            &output,
            &[
                "key.yaml:6:16:",
                "`agents[0].backend.api_key` has a `${` with no closing `}`",
            ],
        );
        let stderr = text(&output.stderr);
        for secret in ["SECRET", "sk-abc", "def\""] {
            assert!(!stderr.contains(secret), "{secret}\n{}", describe(&output));
        }
    }
    // A key pasted into the wrong field is not quoted either.
    sandbox.write(
        "pasted.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      \
         temperature: \"sk-proj-SECRETabcdefghijklmnopqrstuvwxyz0123\"\n",
    );
    let output = run(&sandbox, &["--validate", "pasted.yaml"]);
    assert_refused(
        &output,
        &["`agents[0].backend.temperature` must be a number, found text (not shown"],
    );
    assert!(
        !text(&output.stderr).contains("SECRET"),
        "{}",
        describe(&output)
    );
}

/// Every line of `output`'s stderr starts an error, a warning or a help line.
fn one_line_each(output: &Output) {
    for line in text(&output.stderr).lines() {
        assert!(
            line.starts_with("error: ")
                || line.starts_with("warning: ")
                || line.starts_with("  help: "),
            "a line that does not start an error, warning or help: {line:?}\n{}",
            describe(output)
        );
    }
    assert!(
        !text(&output.stderr).contains(['\u{202e}', '\0', '\r']),
        "{}",
        describe(output)
    );
}

#[test]
fn control_characters_of_a_config_are_shown_escaped() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "id.yaml",
        "agents:\n  - id: \"x\\u202Ey\\nz\\0w\"\n    backend: {type: scripted}\n",
    );
    for args in [
        &["--validate", "id.yaml"][..],
        &[
            "--config",
            "id.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        let output = run(&sandbox, args);
        assert_refused(&output, &["agent id \"x\\u{202e}y\\nz\\u{0}w\""]);
        one_line_each(&output);
    }
    sandbox.write(
        "key.yaml",
        "\"top\\nkey\\u202E\\r\": 1\nagents:\n  - id: a\n    backend: {type: scripted}\n",
    );
    let output = run(&sandbox, &["--validate", "key.yaml"]);
    assert!(
        text(&output.stderr).contains("unknown key `top\\nkey\\u{202e}\\r`"),
        "{}",
        describe(&output)
    );
    one_line_each(&output);
}
