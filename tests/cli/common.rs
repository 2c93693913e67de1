//! Helpers shared by the modules of `tests/cli/` (and `tests/third_party_mock/`): a scripted one-agent config, running the binary, and assertions on its output.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Output, Stdio};

use crate::support::sandbox::{Sandbox, text};

/// A tiny scripted agent that streams with no delay.
pub const SOLO: &str = "\
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answer: \"Solo answer to: {question}\"
";

/// `sandbox.run(args)`: the binary with an empty standard input.
pub trait RunArgs {
    fn run(&self, args: &[&str]) -> Output;
}

impl RunArgs for Sandbox {
    /// Runs `massgen ARGS` with an empty standard input.
    fn run(&self, args: &[&str]) -> Output {
        self.massgen().args(args).write_stdin("").output().unwrap()
    }
}

pub fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

pub fn assert_code(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "{}", describe(output));
    assert!(
        !text(&output.stderr).contains("panicked"),
        "{}",
        describe(output)
    );
}

pub fn assert_stdout_contains(output: &Output, needle: &str) {
    assert!(
        text(&output.stdout).contains(needle),
        "stdout should contain {needle:?}\n{}",
        describe(output)
    );
}

pub fn assert_stderr_contains(output: &Output, needle: &str) {
    assert!(
        text(&output.stderr).contains(needle),
        "stderr should contain {needle:?}\n{}",
        describe(output)
    );
}

/// The lines between `── Final answer …` and the closing `──` of the `n`th turn (1-based).
pub fn final_section(stdout: &str, n: usize) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("── Final answer"))
        .nth(n - 1)
        .map(|(index, _)| index)
        .unwrap_or_else(|| panic!("no `── Final answer` line number {n}\n{stdout}"));
    lines[start + 1..]
        .iter()
        .take_while(|line| **line != "──")
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

/// `massgen ARGS` started in the sandbox — its cwd and home, no colours, no API keys, no
/// inbox from the environment — with its output piped, and its standard output to read
/// line by line while it runs.
pub fn spawn_reading(
    sandbox: &Sandbox,
    args: &[&str],
) -> (std::process::Child, BufReader<std::process::ChildStdout>) {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("massgen"));
    command
        .args(args)
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home").join(".config"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .env_remove("MASSGEN_RUNTIME_INBOX_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, _) in std::env::vars() {
        if key.ends_with("_API_KEY") {
            command.env_remove(key);
        }
    }
    let mut child = command.spawn().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdout)
}

/// Reads lines into `seen` until one contains `needle`, and returns that line; fails when
/// the output ends first.
pub fn read_until_containing(stdout: &mut impl BufRead, needle: &str, seen: &mut String) -> String {
    loop {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "ended before {needle:?}: {seen}"
        );
        seen.push_str(&line);
        if line.contains(needle) {
            return line;
        }
    }
}
