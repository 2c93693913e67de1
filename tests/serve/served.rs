//! A `massgen serve` started on a free port for one test, and what the tests ask of it.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::sandbox::Sandbox;
use crate::support::serve;

pub use crate::support::serve::PAIR;

pub const HANG: &str =
    "agent:\n  id: stuck\n  backend: {type: scripted, tokens_per_second: 0, fail: hang}\n";

/// A running `massgen serve` on a free port; killed when dropped.
pub struct Served {
    pub child: Child,
    pub base: String,
    pub sandbox: Sandbox,
}

impl Served {
    pub fn start(config: &str, extra: &[&str]) -> Self {
        Self::start_with(&[("serve.yaml", config)], extra)
    }

    /// Writes `files` into the sandbox first (the first is the `--config` before `serve`).
    pub fn start_with(files: &[(&str, &str)], extra: &[&str]) -> Self {
        let sandbox = Sandbox::new();
        for (name, text) in files {
            sandbox.write(name, text);
        }
        let (child, address) =
            serve::Listening::start(serve::massgen(), &sandbox, extra).discarding_stderr();
        Self {
            child,
            base: address,
            sandbox,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The status of the session's only turn (`complete`, `incomplete`).
    pub fn turn_statuses(&self) -> Vec<String> {
        let sessions = self.sandbox.massgen_dir().join("sessions");
        let mut statuses = Vec::new();
        for session in std::fs::read_dir(sessions).into_iter().flatten().flatten() {
            let metadata = session.path().join("turn_1/metadata.json");
            if let Ok(bytes) = std::fs::read(metadata) {
                let value: Value = serde_json::from_slice(&bytes).unwrap();
                statuses.push(value["status"].as_str().unwrap_or_default().to_string());
            }
        }
        statuses
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn question(text: &str) -> Value {
    json!({"model": "massgen", "messages": [{"role": "user", "content": text}]})
}

pub async fn post(client: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let response = client.post(url).json(body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

impl Served {
    /// Waits (at most 20 s) for the server to exit and returns its exit code.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "serve did not exit"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// How many turns' event logs end cancelled.
    pub fn cancelled_turns(&self) -> usize {
        let logs = self.sandbox.massgen_dir().join("massgen_logs");
        std::fs::read_dir(logs)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|run| {
                std::fs::read_to_string(run.path().join("turn_1/attempt_1/events.jsonl"))
                    .is_ok_and(|events| events.contains("\"outcome\":\"cancelled\""))
            })
            .count()
    }
}

/// Sends SIGTERM to the server.
pub fn terminate(served: &Served) {
    Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
}
