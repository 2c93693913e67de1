//! Hostile: `massgen serve` on loopback against a web page the user has open (cross-site
//! posts, DNS rebinding, shipped examples), against idle and half-sent connections, and
//! against requests built to cost memory; and a short key on every interface.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cross_site;
mod flood;
mod limits;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::Duration;

use crate::support::sandbox::Sandbox;
use crate::support::serve::{Listening, PAIR};

/// `massgen serve` on a free loopback port, with the open-file limit most systems give
/// (1024), killed when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    address: String,
    sandbox: Sandbox,
}

impl Server {
    fn start(extra: &[&str]) -> Self {
        let sandbox = Sandbox::new();
        sandbox.write("serve.yaml", PAIR);
        let mut shell = Command::new("sh");
        shell
            .args(["-c", "ulimit -n 1024 && exec \"$0\" \"$@\""])
            .arg(assert_cmd::cargo::cargo_bin("massgen"));
        let (child, base) = Listening::start(shell, &sandbox, extra).discarding_stderr();
        let address = base.trim_start_matches("http://").to_string();
        Self {
            child,
            address,
            sandbox,
        }
    }

    fn port(&self) -> &str {
        self.address.rsplit(':').next().unwrap()
    }

    /// Sends `head` (the request line and headers, each ending in CRLF, with `Host:
    /// 127.0.0.1:PORT` unless it names its own Host) and `body`; returns the status, the
    /// response's headers and its body.
    fn send(&self, head: &str, body: &str) -> (u16, String, String) {
        let host = if head.to_ascii_lowercase().contains("\r\nhost:") {
            String::new()
        } else {
            format!("Host: {}\r\n", self.address)
        };
        let request = format!(
            "{head}{host}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        let (headers, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        let status = headers
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status in {response:?}"));
        (status, headers.to_ascii_lowercase(), body.to_string())
    }

    /// How many turns started: each makes a run log directory.
    fn turns_run(&self) -> usize {
        std::fs::read_dir(self.sandbox.massgen_dir().join("massgen_logs"))
            .map(|entries| entries.count())
            .unwrap_or(0)
    }

    /// The server's resident memory now and at its peak, in bytes.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kib| kib.parse::<u64>().ok())
                .unwrap()
                * 1024
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A chat completion body asking `question` of the served config.
fn question(question: &str) -> String {
    serde_json::json!({"model": "massgen", "messages": [{"role": "user", "content": question}]})
        .to_string()
}

/// The `error.code` of an OpenAI-shaped error body.
fn error_code(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body).unwrap_or_default()["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}
