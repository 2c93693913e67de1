//! What `massgen replay` plays: a path (a session, one of its turns, a run's log directory,
//! one of its turns or attempts, or an `events.jsonl`) resolved to event logs in the order
//! they happened, and their events read back. A run killed midway still plays what it
//! recorded: a missing log is noted and skipped, a torn last line dropped.

use std::io;
use std::path::{Path, PathBuf};

use super::event_lines::EventLines;
use super::state_files::{METADATA_MAX, REPLAY_MAX, read_json};
use crate::bounded_file::MIB;
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
    #[error("{} holds more than {} MiB of events, more than a replay holds at once (at {})\n  help: replay one of its turns, or one attempt's events.jsonl", .path.display(), REPLAY_MAX / MIB, .at.display())]
    TooLarge { path: PathBuf, at: PathBuf },
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
    // Refused up front when the logs' sizes already say so; the count while reading
    // catches a log that grows meanwhile.
    let mut sizes: u64 = 0;
    for file in &logs.files {
        sizes += std::fs::metadata(file).map_or(0, |found| found.len());
        if sizes > REPLAY_MAX {
            return Err(ReplayError::TooLarge {
                path: path.to_path_buf(),
                at: file.clone(),
            });
        }
    }
    let mut events = Vec::new();
    let mut read_before: u64 = 0;
    for file in &logs.files {
        let mut lines = match EventLines::open(file) {
            Ok(lines) => lines,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                notes.push(format!("{} is gone", file.display()));
                continue;
            }
            Err(error) => return Err(unreadable(file, error)),
        };
        while let Some(event) = lines
            .next_event()
            .map_err(|error| unreadable(file, error))?
        {
            if read_before + lines.bytes_read() > REPLAY_MAX {
                return Err(ReplayError::TooLarge {
                    path: path.to_path_buf(),
                    at: file.clone(),
                });
            }
            events.push(event);
        }
        read_before += lines.bytes_read();
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

fn unreadable(path: &Path, error: io::Error) -> ReplayError {
    ReplayError::Unreadable {
        path: path.to_path_buf(),
        error,
    }
}

/// The event logs `path` stands for, in the order they were written.
pub fn event_logs(path: &Path) -> Result<EventLogs, ReplayError> {
    if !path.exists() {
        return Err(ReplayError::NotFound(path.to_path_buf()));
    }
    let mut logs = EventLogs::default();
    collect(path, &mut logs).map_err(|error| unreadable(path, error))?;
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
    // Anything but a directory is taken for a log; one that is not a regular file is
    // refused when it is read.
    if !path.is_dir() {
        logs.files.push(path.to_path_buf());
        return Ok(());
    }
    if path.join(EVENTS).exists() {
        logs.files.push(path.join(EVENTS));
        return Ok(());
    }
    if path.join("metadata.json").exists() {
        return session_turn(path, logs);
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
fn session_turn(dir: &Path, logs: &mut EventLogs) -> io::Result<()> {
    let metadata = read_json(&dir.join("metadata.json"), METADATA_MAX)?;
    let log_dir = metadata
        .as_ref()
        .and_then(|metadata| metadata["log_dir"].as_str())
        .map(PathBuf::from);
    match log_dir {
        Some(log_dir) if log_dir.join(EVENTS).exists() => {
            logs.files.extend(
                super::log_dir::earlier_attempt_dirs(&log_dir)
                    .into_iter()
                    .map(|dir| dir.join(EVENTS))
                    .filter(|file| file.exists()),
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
    Ok(())
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
