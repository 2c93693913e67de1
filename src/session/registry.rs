//! The registry of sessions across projects, `~/.massgen/sessions.json`, as MassGen keeps
//! it: one entry per session with MassGen's fields (`start_time`, `end_time`, `status`,
//! `subagent`, …, read by MassGen's `--continue` and `--list-sessions`) and massgen's own
//! (where it lives and what it last did). Rewritten atomically after every turn, under the
//! advisory lock MassGen takes too (`flock` on `sessions.lock`), so that concurrent runs of
//! either program do not lose each other's entries. An entry MassGen made for a session
//! massgen continues keeps MassGen's fields.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::state_files::REGISTRY_MAX;
use super::{pretty_json, write_atomic};
use crate::bounded_file;

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

/// MassGen's lock beside the registry (`sessions.lock`), created if missing; its content
/// is never read.
fn lock_file(registry: &Path) -> io::Result<std::fs::File> {
    if let Some(parent) = registry.parent() {
        std::fs::create_dir_all(parent)?;
    }
    super::lock::open_lock_file(&registry.with_extension("lock"))
}

/// The local time as MassGen's `datetime.now().isoformat()` writes it, which its
/// `--continue` sorts the sessions by.
fn massgen_now() -> String {
    crate::local_time::now()
        .datetime()
        .strftime("%Y-%m-%dT%H:%M:%S%.6f")
        .to_string()
}

fn update(
    registry: &Path,
    session_id: &str,
    session_dir: &Path,
    turns: usize,
    last_task: &str,
    status: &str,
) -> io::Result<()> {
    let project_dir = session_dir
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent);
    let (Some(session_path), Some(project_path)) = (
        session_dir.to_str(),
        project_dir.map_or(Some(None), |dir| dir.to_str().map(Some)),
    ) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is not UTF-8 text, which {} cannot hold; the session is not registered",
                session_dir.display(),
                registry.display()
            ),
        ));
    };
    let mut root: Value = match bounded_file::read(registry, REGISTRY_MAX) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Value::Null,
        // Left as it is: a registry massgen cannot read is not replaced by one entry.
        Err(error) => return Err(error),
    };
    if !root.is_object() {
        root = json!({"sessions": []});
    }
    if !root["sessions"].is_array() {
        root["sessions"] = json!([]);
    }
    let now = jiff::Timestamp::now().to_string();
    let local_now = massgen_now();
    let status = json!(status);
    let ours = json!({
        "session_id": session_id,
        "session_dir": session_path,
        "project_dir": project_path,
        "updated_at": now,
        "turns": turns,
        "last_task": last_task,
        "last_turn_status": status,
        "status": "completed",
        "end_time": local_now,
    });
    if let Some(sessions) = root["sessions"].as_array_mut() {
        let known = sessions.iter_mut().find(|known| {
            known["session_id"] == session_id
                && (known["session_dir"] == ours["session_dir"] || known["session_dir"].is_null())
        });
        let entry = match known {
            Some(known) => known,
            None => {
                sessions.push(json!({
                    "start_time": local_now,
                    "started_at": now,
                    "config_path": null,
                    "model": null,
                    "description": null,
                    "subagent": false,
                    "parent_session_id": null,
                }));
                let last = sessions.len() - 1;
                &mut sessions[last]
            }
        };
        if let (Some(entry), Some(ours)) = (entry.as_object_mut(), ours.as_object()) {
            for (key, value) in ours {
                entry.insert(key.clone(), value.clone());
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
        // MassGen's fields: its `--continue` sorts by `start_time`.
        let start = sessions[0]["start_time"].as_str().unwrap();
        assert_eq!(start.len(), "2026-11-26T21:47:10.044582".len(), "{start}");
        assert_eq!(sessions[0]["status"], "completed");
        assert_eq!(sessions[0]["last_turn_status"], "incomplete");
        assert_eq!(sessions[0]["subagent"], false);
        assert_eq!(
            sessions[0]["project_dir"],
            dir.path().join("proj").display().to_string()
        );
    }

    #[test]
    fn a_session_massgen_registered_keeps_its_fields_when_massgen_rust_continues_it() {
        let dir = tempfile::tempdir().unwrap();
        let registry = dir.path().join(".massgen/sessions.json");
        let massgen_entry = json!({"sessions": [{
            "session_id": "session_1", "start_time": "2026-01-02T03:04:05.000006",
            "end_time": null, "status": "active", "config_path": "/p/team.yaml",
            "model": "gpt-5", "description": null, "subagent": false,
            "parent_session_id": null, "log_directory": "/p/.massgen/massgen_logs/log_1"
        }]});
        std::fs::create_dir_all(registry.parent().unwrap()).unwrap();
        std::fs::write(&registry, massgen_entry.to_string()).unwrap();
        let session = dir.path().join("p/.massgen/sessions/session_1");
        register(&registry, "session_1", &session, 2, "next", "complete").unwrap();
        let root: Value = serde_json::from_slice(&std::fs::read(&registry).unwrap()).unwrap();
        let sessions = root["sessions"].as_array().unwrap();
        assert_eq!(sessions.len(), 1, "{sessions:?}");
        let entry = &sessions[0];
        assert_eq!(entry["start_time"], "2026-01-02T03:04:05.000006");
        assert_eq!(entry["config_path"], "/p/team.yaml");
        assert_eq!(entry["log_directory"], "/p/.massgen/massgen_logs/log_1");
        assert_eq!(entry["turns"], 2);
        assert_eq!(entry["status"], "completed");
        assert!(dir.path().join(".massgen/sessions.lock").is_file());
    }
}
