//! The steering inbox (`--inbox-dir`): `msg_*.json` files dropped into a directory while a
//! turn runs, read in name order and deleted, each becoming human input for its agents.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use tokio::time::Instant;

use crate::protocol::AgentId;

/// How often a running turn looks into the inbox.
pub const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// What one inbox file came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Steering {
    /// Human input for `targets` (empty: every agent).
    Deliver { text: String, targets: Vec<AgentId> },
    /// A file that could not be delivered (whole or in part), and why.
    Warn(String),
}

/// One message file as a writer (MassGen's `send_steering_message`) lays it out.
#[derive(Deserialize)]
struct MessageFile {
    content: String,
    #[serde(default)]
    target_agents: Option<Vec<String>>,
}

/// The inbox a running turn polls every [`POLL_INTERVAL`].
pub struct SteeringPoller {
    dir: PathBuf,
    next_poll: Instant,
}

impl SteeringPoller {
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            next_poll: Instant::now() + POLL_INTERVAL,
        }
    }

    /// When the next look is due.
    pub fn due(&self) -> Instant {
        self.next_poll
    }

    /// Takes every message file now in the inbox; `known` are the agents a message may be
    /// for. The next look is due a [`POLL_INTERVAL`] from now.
    pub fn poll(&mut self, known: &[AgentId]) -> Vec<Steering> {
        self.next_poll = Instant::now() + POLL_INTERVAL;
        take_messages(&self.dir, known)
    }
}

/// The largest steering message read; a bigger file is dropped with a warning.
const MAX_MESSAGE_BYTES: u64 = crate::bounded_file::MIB;

/// Reads and deletes the inbox's `msg_*.json` files in name order. Files still being
/// written (`*.tmp`) are left alone; a file that vanished meanwhile is skipped.
pub fn take_messages(dir: &Path, known: &[AgentId]) -> Vec<Steering> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.starts_with("msg_") && name.ends_with(".json"))
        .collect();
    names.sort();
    let mut taken = Vec::new();
    for name in names {
        let path = dir.join(&name);
        let read = crate::bounded_file::read_to_string(&path, MAX_MESSAGE_BYTES);
        if matches!(&read, Err(error) if error.kind() == std::io::ErrorKind::NotFound) {
            continue;
        }
        if let Err(error) = std::fs::remove_file(&path) {
            tracing::warn!(file = %path.display(), "cannot delete a steering message: {error}");
        }
        match read {
            Ok(text) => taken.extend(read_message(&name, &text, known)),
            // A FIFO, a huge file or one that is not text: dropped, never waited on.
            Err(error) => taken.push(Steering::Warn(format!(
                "steering message {name} was dropped: {error}"
            ))),
        }
    }
    taken
}

/// What one file's text delivers, and what it warns about.
fn read_message(name: &str, text: &str, known: &[AgentId]) -> Vec<Steering> {
    let message: MessageFile = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(error) => {
            return vec![Steering::Warn(format!(
                "steering message {name} is not valid ({error}); it was dropped"
            ))];
        }
    };
    if message.content.trim().is_empty() {
        return vec![Steering::Warn(format!(
            "steering message {name} has no content; it was dropped"
        ))];
    }
    let Some(asked) = message.target_agents.filter(|ids| !ids.is_empty()) else {
        return vec![Steering::Deliver {
            text: message.content,
            targets: Vec::new(),
        }];
    };
    let (targets, unknown): (Vec<AgentId>, Vec<AgentId>) = asked
        .into_iter()
        .map(AgentId::new)
        .partition(|id| known.contains(id));
    let mut taken = Vec::new();
    if !unknown.is_empty() {
        let consequence = if targets.is_empty() {
            "it was not delivered"
        } else {
            "it went to the others"
        };
        taken.push(Steering::Warn(format!(
            "steering message {name} names unknown agents {} (agents: {}); {consequence}",
            ids(&unknown),
            ids(known)
        )));
    }
    if !targets.is_empty() {
        taken.push(Steering::Deliver {
            text: message.content,
            targets,
        });
    }
    taken
}

fn ids(agents: &[AgentId]) -> String {
    agents
        .iter()
        .map(AgentId::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<AgentId> {
        vec![AgentId::new("a"), AgentId::new("b")]
    }

    fn deliver(text: &str, targets: &[&str]) -> Steering {
        Steering::Deliver {
            text: text.into(),
            targets: targets.iter().copied().map(AgentId::new).collect(),
        }
    }

    #[test]
    fn a_file_too_big_to_be_a_message_is_dropped_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let big = format!(r#"{{"content": "{}"}}"#, "x".repeat(2 << 20));
        std::fs::write(dir.path().join("msg_1.json"), big).unwrap();
        let taken = take_messages(dir.path(), &known());
        assert!(
            matches!(&taken[..], [Steering::Warn(message)] if message.contains("msg_1.json")),
            "{taken:?}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn files_are_read_in_name_order_and_deleted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("msg_2.json"), r#"{"content": "second"}"#).unwrap();
        std::fs::write(
            dir.path().join("msg_1.json"),
            r#"{"content": "first", "target_agents": null, "source": "programmatic"}"#,
        )
        .unwrap();
        let taken = take_messages(dir.path(), &known());
        assert_eq!(taken, vec![deliver("first", &[]), deliver("second", &[])]);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn half_written_and_other_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("msg_1.json.tmp"), r#"{"content": "x"}"#).unwrap();
        std::fs::write(dir.path().join("notes.json"), r#"{"content": "x"}"#).unwrap();
        assert!(take_messages(dir.path(), &known()).is_empty());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_malformed_or_empty_message_warns_by_name_and_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("msg_1.json"), "{not json").unwrap();
        std::fs::write(dir.path().join("msg_2.json"), r#"{"content": "  "}"#).unwrap();
        let taken = take_messages(dir.path(), &known());
        assert!(
            matches!(&taken[..], [Steering::Warn(bad), Steering::Warn(empty)]
                if bad.contains("msg_1.json") && empty.contains("msg_2.json")),
            "{taken:?}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_targeted_message_goes_only_to_known_agents() {
        let text = r#"{"content": "add tests", "target_agents": ["b", "zed"]}"#;
        let taken = read_message("msg_1.json", text, &known());
        assert!(
            matches!(&taken[0], Steering::Warn(warning)
                if warning.contains("zed") && warning.contains("agents: a, b")),
            "{taken:?}"
        );
        assert_eq!(taken[1], deliver("add tests", &["b"]));
        let nobody = r#"{"content": "hi", "target_agents": ["zed"]}"#;
        let taken = read_message("msg_2.json", nobody, &known());
        assert!(
            matches!(&taken[..], [Steering::Warn(warning)] if warning.contains("not delivered"))
        );
    }

    #[test]
    fn a_missing_inbox_yields_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(take_messages(&dir.path().join("absent"), &known()).is_empty());
    }
}
