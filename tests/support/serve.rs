//! `massgen serve` started on a free loopback port for a test: the command set up in a
//! sandbox, and the address it prints once it listens.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, Stdio};

use super::sandbox::Sandbox;

/// Two scripted agents that answer at once.
pub const PAIR: &str = "\
agents:
  - id: alpha
    backend: {type: scripted, tokens_per_second: 0, answers: [\"Four.\"], final_answer: \"The answer is 4.\"}
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: [\"4\"], vote_for: alpha}
";

/// A started server: its process, its base URL (`http://127.0.0.1:PORT`) and the rest of
/// its standard error.
pub struct Listening {
    pub child: Child,
    pub base: String,
    pub stderr: BufReader<ChildStderr>,
}

impl Listening {
    /// `command` (the massgen binary, or a shell that execs it with the arguments it is
    /// given) with `--config serve.yaml serve --port 0` and `extra`, run in `sandbox`;
    /// returns once the server says where it listens.
    pub fn start(mut command: Command, sandbox: &Sandbox, extra: &[&str]) -> Self {
        let mut child = command
            .args(["--config", "serve.yaml", "serve", "--port", "0"])
            .args(extra)
            .current_dir(&sandbox.root)
            .env("HOME", sandbox.root.join("home"))
            .env("XDG_CONFIG_HOME", sandbox.root.join("home/.config"))
            .env_remove("MASSGEN_SERVE_API_KEY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let base = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Self {
            child,
            base,
            stderr,
        }
    }

    /// The process and base URL, the rest of standard error read and dropped (so the
    /// server never blocks on a full pipe).
    pub fn discarding_stderr(self) -> (Child, String) {
        let mut stderr = self.stderr;
        std::thread::spawn(move || {
            let mut rest = String::new();
            while stderr.read_line(&mut rest).unwrap_or(0) > 0 {
                rest.clear();
            }
        });
        (self.child, self.base)
    }
}

/// The massgen binary under test.
pub fn massgen() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("massgen"))
}
