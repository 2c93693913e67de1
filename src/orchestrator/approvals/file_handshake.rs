//! The headless handshake, as MassGen's `FileApprovalProvider` keeps it: a request is
//! written to `<approval_dir>/<agent>/req_<id>.json`, whoever answers writes
//! `resp_<id>.json` (`{"approved": bool, "scope": "once|session|always", "feedback": ".."}`),
//! which is read once and deleted; the request file is then rewritten with the final status.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::pending::Waiting;
use crate::protocol::{ApprovalAnswer, ApprovalRequest, GrantScope};

/// How often the response file is looked for (MassGen polls every 0.4 s).
const POLL_INTERVAL: Duration = Duration::from_millis(400);

/// How one handshake ended.
#[derive(Clone, Debug, PartialEq)]
pub enum FileAnswer {
    Answered(ApprovalAnswer),
    /// A response file that is not JSON: denied, never guessed at.
    Unreadable(String),
    TimedOut,
}

/// One agent's handshake directory.
#[derive(Clone, Debug, PartialEq)]
pub struct FileHandshake {
    dir: PathBuf,
}

impl FileHandshake {
    /// `dir` is the agent's own directory (`<approval_dir>/<agent>`).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    #[cfg(test)]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Files `request` under `id` (`req_<id>.json`, status `pending`); the error says why
    /// it could not be written.
    pub fn file(
        &self,
        request: &ApprovalRequest,
        id: &str,
        pattern: &str,
    ) -> Result<Filed, String> {
        let mut filed = RequestFile {
            path: self.dir.join(format!("req_{id}.json")),
            body: request_body(request, id, pattern),
            settled: false,
        };
        if let Err(error) = std::fs::create_dir_all(&self.dir).and_then(|()| filed.write()) {
            filed.settled = true;
            return Err(format!(
                "the approval request could not be written to {}: {error}",
                self.dir.display()
            ));
        }
        Ok(Filed {
            request: filed,
            response: self.dir.join(format!("resp_{id}.json")),
        })
    }
}

/// A filed request waiting for its response.
pub struct Filed {
    request: RequestFile,
    response: PathBuf,
}

impl Filed {
    /// Where the answer goes: `resp_<id>.json`.
    pub fn response_path(&self) -> &Path {
        &self.response
    }

    /// Waits up to `timeout` for the response — or for `elsewhere`, a person answering in
    /// the TUI; one already there (written before a restart) counts at once. The request
    /// file is then settled.
    pub async fn wait(mut self, timeout: Duration, elsewhere: &mut Waiting) -> FileAnswer {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut elsewhere_open = true;
        let answer = loop {
            if let Some(answer) = take_response(&self.response) {
                break answer;
            }
            if tokio::time::Instant::now() >= deadline {
                break FileAnswer::TimedOut;
            }
            let poll = tokio::time::sleep(POLL_INTERVAL.min(timeout));
            if elsewhere_open {
                tokio::select! {
                    answer = elsewhere.answer() => match answer {
                        Some(answer) => break FileAnswer::Answered(answer),
                        None => elsewhere_open = false,
                    },
                    () = poll => {}
                }
            } else {
                poll.await;
            }
        };
        self.request.settle(match &answer {
            FileAnswer::Answered(ApprovalAnswer::Approve { .. }) => "approved",
            FileAnswer::Answered(ApprovalAnswer::Deny { .. }) | FileAnswer::Unreadable(_) => {
                "denied"
            }
            FileAnswer::TimedOut => "timeout",
        });
        answer
    }
}

/// MassGen's request fields, then ours.
fn request_body(request: &ApprovalRequest, id: &str, pattern: &str) -> Value {
    json!({
        "id": id,
        "agent_id": request.agent.as_str(),
        "tool": request.tool,
        "pattern": pattern,
        "risk": request.risk.as_str(),
        "reason": request.reason,
        "preview": request.preview,
        "status": "pending",
        "arguments": request.arguments,
        "action": request.action.as_str(),
        "target": request.target,
        "rule": request.rule,
        "diff": request.diff,
        "request_id": request.request_id,
        "timeout_secs": request.timeout_secs,
    })
}

/// The largest response read; anything bigger (or not a regular file) denies.
const MAX_RESPONSE_BYTES: u64 = crate::bounded_file::MIB;

/// Reads and deletes the response file, if there is one.
fn take_response(path: &Path) -> Option<FileAnswer> {
    let text = match crate::bounded_file::read_to_string(path, MAX_RESPONSE_BYTES) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
        Err(error) => {
            let _ = std::fs::remove_file(path);
            return Some(FileAnswer::Unreadable(format!(
                "{} could not be read: {error}",
                path.display()
            )));
        }
    };
    let _ = std::fs::remove_file(path);
    Some(read_response(&text).unwrap_or_else(|| {
        FileAnswer::Unreadable(format!("{} is not a JSON object", path.display()))
    }))
}

/// `{"approved"|"allowed": bool, "scope": .., "feedback": ..}`; anything but `true` denies.
fn read_response(text: &str) -> Option<FileAnswer> {
    let data: Value = serde_json::from_str(text).ok().filter(Value::is_object)?;
    let approved = data
        .get("approved")
        .or_else(|| data.get("allowed"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let answer = if approved {
        let scope = match data.get("scope").and_then(Value::as_str) {
            Some("session") => GrantScope::Session,
            Some("always") => GrantScope::Always,
            _ => GrantScope::Once,
        };
        ApprovalAnswer::Approve { scope }
    } else {
        let message = data
            .get("feedback")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|feedback| !feedback.is_empty())
            .map(str::to_string);
        ApprovalAnswer::Deny { message }
    };
    Some(FileAnswer::Answered(answer))
}

/// The request file while its call waits; one dropped unsettled (the turn was cancelled)
/// is marked `cancelled`, never left `pending`.
struct RequestFile {
    path: PathBuf,
    body: Value,
    settled: bool,
}

impl RequestFile {
    fn write(&self) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(&self.body).map_err(std::io::Error::other)?;
        let partial = self.path.with_extension("json.partial");
        std::fs::write(&partial, text)?;
        std::fs::rename(&partial, &self.path)
    }

    fn settle(&mut self, status: &str) {
        self.settled = true;
        self.body["status"] = Value::String(status.to_string());
        if let Err(error) = self.write() {
            tracing::warn!(path = %self.path.display(), "approval request not updated: {error}");
        }
    }
}

impl Drop for RequestFile {
    fn drop(&mut self) {
        if !self.settled {
            self.settle("cancelled");
        }
    }
}

#[cfg(test)]
#[path = "file_handshake_tests.rs"]
mod tests;
