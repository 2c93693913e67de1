//! LLMock (PyPI `llmock`, pinned in `tests/peers/requirements.txt`): started on a free
//! loopback port from the peers' virtualenv, scripted through its admin API
//! (`POST /_llmock/scenario`), killed on drop.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness;

pub struct Llmock {
    child: Child,
    pub url: String,
    /// The server's log (stderr), for failure messages.
    log: tempfile::NamedTempFile,
}

impl Llmock {
    /// `llmock serve` on a port the system picks, or `None` (skip) when it is not installed.
    ///
    /// `--tool-mode off`: a request no scripted reply matches gets text, never a call to
    /// whichever offered tool LLMock finds closest to the prompt. Port 0 and the address
    /// uvicorn then logs, rather than a port picked here: two servers started at once can
    /// never end up on one port, each test talking to the other's mock.
    pub fn start() -> Option<Self> {
        let program = harness::venv_program("llmock")?;
        let log = tempfile::NamedTempFile::new().unwrap();
        let child = Command::new(program)
            .args(["serve", "--host", "127.0.0.1", "--port", "0"])
            .args(["--tool-mode", "off", "--log-level", "info"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.reopen().unwrap())
            .spawn()
            .unwrap();
        let mut mock = Self {
            child,
            url: String::new(),
            log,
        };
        mock.url = mock.wait_listening();
        Some(mock)
    }

    /// The `http://127.0.0.1:PORT` of uvicorn's "Uvicorn running on …" line.
    fn wait_listening(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let output = self.output();
            let address = output.lines().find_map(|line| {
                let rest = line.split_once("Uvicorn running on ")?.1;
                rest.split_whitespace().next().map(str::to_string)
            });
            if let Some(address) = address {
                return address;
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("llmock exited with {status}:\n{output}");
            }
            assert!(
                Instant::now() < deadline,
                "llmock did not start listening:\n{output}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the server logged (uvicorn's start-up and one line per request).
    pub fn output(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap_or_default()
    }

    /// Queues `behaviors` (LLMock's JSON form, e.g. `{"type": "reply", "text": "…"}`).
    pub async fn script(&self, behaviors: &[Value]) {
        let response = massgen::backend::http_client()
            .unwrap()
            .post(format!("{}/_llmock/scenario", self.url))
            .json(&json!({ "behaviors": behaviors }))
            .send()
            .await
            .unwrap();
        let status = response.status();
        let body = response.text().await.unwrap();
        assert!(status.is_success(), "llmock refused the scenario: {body}");
    }

    /// Scripted behaviours no request has consumed yet.
    pub async fn pending(&self) -> Vec<Value> {
        let body: Value = massgen::backend::http_client()
            .unwrap()
            .get(format!("{}/_llmock/scenario", self.url))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body["pending"].as_array().cloned().unwrap_or_default()
    }
}

impl Drop for Llmock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
