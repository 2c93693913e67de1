//! The registry of sessions across projects, `~/.massgen/sessions.json`, as MassGen keeps
//! it: one entry per session with where it lives and what it last did. Rewritten
//! atomically after every turn, under an advisory lock on `sessions.json.lock` so that
//! concurrent runs do not lose each other's entries.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{pretty_json, write_atomic};

/// `~/.massgen/sessions.json`, when there is a home directory.
pub fn registry_path() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.home_dir().join(".massgen").join("sessions.json"))
}

/// Adds or updates the entry of `session_id`. Read, change and write happen while holding
/// an exclusive lock on the sibling `sessions.json.lock` (released when the file closes).
pub fn register(
    registry: &Path,
    session_id: &str,
    session_dir: &Path,
    turns: usize,
    last_task: &str,
    status: &str,
) -> io::Result<()> {
    let lock = lock_file(registry)?;
    lock.lock()?;
    update(registry, session_id, session_dir, turns, last_task, status)
}

/// `<registry>.lock`, created if missing (its content is never read).
fn lock_file(registry: &Path) -> io::Result<std::fs::File> {
    if let Some(parent) = registry.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut name = registry.as_os_str().to_owned();
    name.push(".lock");
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(PathBuf::from(name))
}

fn update(
    registry: &Path,
    session_id: &str,
    session_dir: &Path,
    turns: usize,
    last_task: &str,
    status: &str,
) -> io::Result<()> {
    let mut root: Value = std::fs::read(registry)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"sessions": []}));
    if !root["sessions"].is_array() {
        root["sessions"] = json!([]);
    }
    let now = jiff::Timestamp::now().to_string();
    let entry = json!({
        "session_id": session_id,
        "session_dir": session_dir,
        "project_dir": session_dir.parent().and_then(Path::parent).and_then(Path::parent),
        "updated_at": now,
        "turns": turns,
        "last_task": last_task,
        "status": status,
    });
    if let Some(sessions) = root["sessions"].as_array_mut() {
        match sessions.iter_mut().find(|known| {
            known["session_id"] == session_id && known["session_dir"] == entry["session_dir"]
        }) {
            Some(known) => {
                let started = known["started_at"].clone();
                *known = entry;
                known["started_at"] = started;
            }
            None => {
                let mut entry = entry;
                entry["started_at"] = json!(now);
                sessions.push(entry);
            }
        }
    }
    write_atomic(registry, &pretty_json(&root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_added_then_updated_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let registry = dir.path().join(".massgen/sessions.json");
        let session = dir.path().join("proj/.massgen/sessions/session_1");
        register(&registry, "session_1", &session, 1, "first", "complete").unwrap();
        register(&registry, "session_1", &session, 2, "second", "incomplete").unwrap();
        register(
            &registry,
            "session_2",
            &session.with_file_name("session_2"),
            1,
            "x",
            "complete",
        )
        .unwrap();
        let root: Value = serde_json::from_slice(&std::fs::read(&registry).unwrap()).unwrap();
        let sessions = root["sessions"].as_array().unwrap();
        assert_eq!(sessions.len(), 2);
        assert_eq!(sessions[0]["turns"], 2);
        assert_eq!(sessions[0]["last_task"], "second");
        assert!(sessions[0]["started_at"].is_string());
        assert_eq!(
            sessions[0]["project_dir"],
            dir.path().join("proj").display().to_string()
        );
    }
}
