//! How much massgen reads back of each of its own session and log files, and reading them
//! within that: regular files only, never more than the bound of their kind.

use std::io;
use std::path::Path;

use serde_json::Value;

use crate::bounded_file::{self, MIB};

/// A turn's `metadata.json`, `history_cleared.json`, `execution_metadata.yaml`: small
/// records whose largest field is the question (1 MiB by default).
pub const METADATA_MAX: u64 = 16 * MIB;
/// The turn records (`metadata.json`) read when listing a project's sessions, all together:
/// each keeps its question in memory.
pub const LISTED_MAX: u64 = 64 * MIB;
/// A turn's `answer.txt`: one final answer, which one model call's output cap (4 MiB by
/// default) bounds.
pub const ANSWER_MAX: u64 = 16 * MIB;
/// A cancelled turn's `partial_answers.json`: one latest answer per agent.
pub const PARTIAL_ANSWERS_MAX: u64 = 64 * MIB;
/// Everything a continued session's history holds (answers and cancelled-turn notes)
/// together: twice what the largest context windows take (about 2M tokens, 8 MB of text),
/// and every request of the turn carries it.
pub const HISTORY_MAX: u64 = 16 * MIB;
/// `~/.massgen/sessions.json`: a few hundred bytes per session plus its last question.
pub const REGISTRY_MAX: u64 = 64 * MIB;
/// An attempt's `metrics_summary.json`: totals per agent, round and tool.
pub const METRICS_MAX: u64 = 16 * MIB;
/// The event logs one replay reads in all: every event is held while it plays (each
/// delta as it was streamed), in about four times the bytes of its line.
pub const REPLAY_MAX: u64 = 64 * MIB;

/// `path` parsed as JSON; `Ok(None)` when it is missing or is not JSON (a file cut short by
/// a crash), an error when it is refused (not a regular file, over `max_bytes`).
pub fn read_json(path: &Path, max_bytes: u64) -> io::Result<Option<Value>> {
    match bounded_file::read(path, max_bytes) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// [`read_json`] for readers that go on without the file: a refusal is logged and counts
/// as a missing file.
pub fn read_json_or_skip(path: &Path, max_bytes: u64) -> Option<Value> {
    read_json(path, max_bytes).unwrap_or_else(|error| {
        tracing::warn!(%error, "a session file was not read");
        None
    })
}

/// A path as a JSON string: lossily when it is not UTF-8 (JSON cannot hold it exactly).
pub fn path_json(path: &Path) -> Value {
    Value::String(path.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn missing_or_broken_json_is_none_and_a_refused_file_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metadata.json");
        assert!(read_json(&path, 8).unwrap().is_none());
        std::fs::write(&path, "{\"turn\":").unwrap();
        assert!(read_json(&path, 8).unwrap().is_none());
        std::fs::write(&path, "{\"turn\": 1}").unwrap();
        assert_eq!(read_json(&path, 16).unwrap().unwrap()["turn"], 1);
        assert_eq!(
            read_json(&path, 8).unwrap_err().kind(),
            io::ErrorKind::FileTooLarge
        );
        assert!(read_json_or_skip(&path, 8).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_is_written_lossily() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/caf\xe9"));
        assert_eq!(path_json(path), "/tmp/caf\u{fffd}");
    }
}
