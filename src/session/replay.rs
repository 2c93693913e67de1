//! What `massgen replay` plays: a path (a session, one of its turns, a run's log directory,
//! one of its turns or attempts, or an `events.jsonl`) resolved to event logs in the order
//! they happened, and their events read back. A run killed midway still plays what it
//! recorded: a missing log is noted and skipped, a torn last line dropped.

use std::io;
use std::path::{Path, PathBuf};

use super::event_log::read_events;
use crate::protocol::Event;

const EVENTS: &str = "events.jsonl";

const WHAT_TO_GIVE: &str = "give a session (.massgen/sessions/session_…) or one of its turn_N \
     directories, a run log (.massgen/massgen_logs/log_…), a turn_N or attempt_N directory \
     in it, or an events.jsonl; massgen --list-sessions lists the sessions";

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{} does not exist\n  help: {WHAT_TO_GIVE}", .0.display())]
    NotFound(PathBuf),
    #[error("no recorded events in {}{}\n  help: {WHAT_TO_GIVE}", .path.display(), notes_text(.notes))]
    NoEvents { path: PathBuf, notes: Vec<String> },
    #[error("cannot read {}: {error}\n  help: the log is damaged; replay one of its other turns, or an attempt's events.jsonl", .path.display())]
    Unreadable { path: PathBuf, error: io::Error },
}

fn notes_text(notes: &[String]) -> String {
    notes
        .iter()
        .map(|note| format!("\n  note: {note}"))
        .collect()
}

/// The event logs a path stands for, oldest first, and what was expected but missing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventLogs {
    pub files: Vec<PathBuf>,
    /// Turns that left no event log (a run killed before logging, a moved log).
    pub notes: Vec<String>,
}

/// A recording ready to play: every event of every log, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub source: PathBuf,
    pub events: Vec<Event>,
    pub notes: Vec<String>,
}

/// Resolves `path` and reads every event it stands for.
pub fn load_recording(path: &Path) -> Result<Recording, ReplayError> {
    let logs = event_logs(path)?;
    let mut notes = logs.notes;
    let mut events = Vec::new();
    for file in &logs.files {
        match read_events(file) {
            Ok(read) => events.extend(read),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                notes.push(format!("{} is gone", file.display()));
            }
            Err(error) => {
                return Err(ReplayError::Unreadable {
                    path: file.clone(),
                    error,
                });
            }
        }
    }
    if events.is_empty() {
        return Err(ReplayError::NoEvents {
            path: path.to_path_buf(),
            notes,
        });
    }
    Ok(Recording {
        source: path.to_path_buf(),
        events,
        notes,
    })
}

/// The event logs `path` stands for, in the order they were written.
pub fn event_logs(path: &Path) -> Result<EventLogs, ReplayError> {
    if !path.exists() {
        return Err(ReplayError::NotFound(path.to_path_buf()));
    }
    let mut logs = EventLogs::default();
    let unreadable = |error| ReplayError::Unreadable {
        path: path.to_path_buf(),
        error,
    };
    collect(path, &mut logs).map_err(unreadable)?;
    if logs.files.is_empty() {
        return Err(ReplayError::NoEvents {
            path: path.to_path_buf(),
            notes: logs.notes,
        });
    }
    Ok(logs)
}

/// Adds the logs under `path` to `logs`; a directory of no known shape adds nothing.
fn collect(path: &Path, logs: &mut EventLogs) -> io::Result<()> {
    if path.is_file() {
        logs.files.push(path.to_path_buf());
        return Ok(());
    }
    if path.join(EVENTS).is_file() {
        logs.files.push(path.join(EVENTS));
        return Ok(());
    }
    if path.join("metadata.json").is_file() {
        session_turn(path, logs);
        return Ok(());
    }
    // A log's turn directory: a turn the winner sent back went on in later attempts.
    let attempts = numbered(path, "attempt_")?;
    if !attempts.is_empty() {
        for attempt in attempts {
            collect_noting(&attempt, logs)?;
        }
        return Ok(());
    }
    for turn in numbered(path, "turn_")? {
        collect_noting(&turn, logs)?;
    }
    Ok(())
}

/// Like [`collect`], noting a directory that held no log.
fn collect_noting(path: &Path, logs: &mut EventLogs) -> io::Result<()> {
    let (files, notes) = (logs.files.len(), logs.notes.len());
    collect(path, logs)?;
    if logs.files.len() == files && logs.notes.len() == notes {
        logs.notes.push(format!("{}: no {EVENTS}", path.display()));
    }
    Ok(())
}

/// A session's `turn_N/`: its `metadata.json` names the log directory of the turn.
fn session_turn(dir: &Path, logs: &mut EventLogs) {
    let metadata = std::fs::read(dir.join("metadata.json"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok());
    let log_dir = metadata
        .as_ref()
        .and_then(|metadata| metadata["log_dir"].as_str())
        .map(PathBuf::from);
    match log_dir {
        Some(log_dir) if log_dir.join(EVENTS).is_file() => {
            logs.files.extend(
                super::log_dir::earlier_attempt_dirs(&log_dir)
                    .into_iter()
                    .map(|dir| dir.join(EVENTS))
                    .filter(|file| file.is_file()),
            );
            logs.files.push(log_dir.join(EVENTS));
        }
        Some(log_dir) => logs.notes.push(format!(
            "{}: its event log {} is missing",
            dir.display(),
            log_dir.join(EVENTS).display()
        )),
        None => logs.notes.push(format!(
            "{}: metadata.json names no event log (the run had logging off?)",
            dir.display()
        )),
    }
}

/// The subdirectories `<prefix>N` of `dir`, by increasing N.
fn numbered(dir: &Path, prefix: &str) -> io::Result<Vec<PathBuf>> {
    let mut found: Vec<(u32, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let number = name
            .to_str()
            .and_then(|name| name.strip_prefix(prefix))
            .and_then(|number| number.parse().ok());
        if let Some(number) = number
            && entry.path().is_dir()
        {
            found.push((number, entry.path()));
        }
    }
    found.sort_by_key(|(number, _)| *number);
    Ok(found.into_iter().map(|(_, path)| path).collect())
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;
