//! Finding earlier sessions and picking one up again: `--list-sessions`, `--continue` and
//! `--session-id`. A session's turns are read back from `turn_N/metadata.json` and
//! `answer.txt`; a cancelled turn becomes a history entry that says what was cancelled;
//! `/clear` is remembered in `history_cleared.json`, so the turns before it stay out of
//! the history. `--continue` prefers the newest session run with the same config. Front
//! ends get each turn's recorded events too, to show it as it ran.

use std::io;
use std::path::{Path, PathBuf};

use super::SessionStore;
use super::recorded::{RECORDED_MAX, recorded_turn};
use super::state_files::{LISTED_MAX, METADATA_MAX, read_json_or_skip};
use super::store::{HISTORY_CLEARED_FILE, outcome_of_status};
use crate::bounded_file::{self, MIB};
use crate::protocol::{AgentId, EventMsg, ResumedTurn, TurnOutcome};

/// One earlier session, as `--list-sessions` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionInfo {
    pub id: String,
    pub dir: PathBuf,
    pub turns: Vec<PastTurn>,
    /// The first turn the conversation history holds: 1, or the turn after a `/clear`.
    pub history_from: u32,
    /// Said when the run starts: a `--continue` that found no session of its own config.
    pub notice: Option<String>,
    /// Turn files refused by their bound or type (why, naming each): such a session
    /// cannot be continued.
    pub unreadable: Vec<String>,
}

/// A recorded turn: what was asked and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct PastTurn {
    pub turn: u32,
    pub question: String,
    pub winner: Option<String>,
    pub status: String,
    /// The final answer, or for a cancelled turn a note with the agents' latest answers;
    /// read only for the session being continued ([`SessionInfo::read_answers`]).
    pub answer: String,
    /// The attempt directory holding the turn's `events.jsonl`, if it was logged.
    pub log_dir: Option<PathBuf>,
}

/// Every session under `<massgen_dir>/sessions/`, newest first, without their answers.
pub fn list_sessions(massgen_dir: &Path) -> io::Result<Vec<SessionInfo>> {
    let root = massgen_dir.join("sessions");
    let mut sessions = Vec::new();
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(sessions),
        Err(error) => return Err(error),
    };
    let mut budget = LISTED_MAX;
    for entry in entries {
        let entry = entry?;
        let id = entry.file_name().to_string_lossy().into_owned();
        if id.starts_with("session_") && entry.path().is_dir() {
            let mut unreadable = Vec::new();
            sessions.push(SessionInfo {
                turns: past_turns(&entry.path(), &mut unreadable, &mut budget),
                history_from: history_from(&entry.path()),
                dir: entry.path(),
                id,
                notice: None,
                unreadable,
            });
        }
    }
    // Names hold the start time, so they sort by age.
    sessions.sort_by(|a, b| b.id.cmp(&a.id));
    Ok(sessions)
}

/// The session to continue: `id` if given, else the newest one with turns that ran the
/// config named `config` (as the run names its config, resolved against `project`), else
/// the newest one with turns, with a notice saying so. This run holds it from now on; one
/// that another run holds is refused.
pub fn find_session(
    massgen_dir: &Path,
    id: Option<&str>,
    config: Option<(&str, &Path)>,
) -> Result<SessionInfo, String> {
    let sessions = list_sessions(massgen_dir)
        .map_err(|error| format!("cannot read {}: {error}", massgen_dir.display()))?;
    let found = match id {
        Some(id) => sessions.into_iter().find(|session| session.id == id),
        None => newest_of(sessions, config),
    };
    let mut found = found.ok_or_else(|| match id {
        Some(id) => format!(
            "no session `{id}` under {}\n  help: massgen --list-sessions shows them",
            massgen_dir.join("sessions").display()
        ),
        None => format!(
            "no earlier session under {} to continue\n  help: ask a question without \
             --continue to start one",
            massgen_dir.join("sessions").display()
        ),
    })?;
    found.read_answers()?;
    // Held for the rest of the run: no other run may append to it meanwhile.
    super::hold_session(&found.dir, &found.id)?;
    Ok(found)
}

/// The newest session with turns run with `config`, or else the newest with turns.
fn newest_of(sessions: Vec<SessionInfo>, config: Option<(&str, &Path)>) -> Option<SessionInfo> {
    // A session with a refused turn file counts: continuing it then says which file.
    let mut with_turns = sessions
        .into_iter()
        .filter(|session| !session.turns.is_empty() || !session.unreadable.is_empty());
    let Some((config, project)) = config else {
        return with_turns.next();
    };
    let with_turns: Vec<SessionInfo> = with_turns.collect();
    let wanted = same_config_key(config, project);
    if let Some(own) = with_turns.iter().position(|session| {
        session
            .config_source()
            .is_some_and(|source| same_config_key(&source, project) == wanted)
    }) {
        return with_turns.into_iter().nth(own);
    }
    let mut newest = with_turns.into_iter().next()?;
    let ran = newest
        .config_source()
        .unwrap_or_else(|| "an unrecorded config".into());
    newest.notice = Some(format!(
        "no earlier session ran {config}: continuing the newest session, {}, which ran {ran} \
         (--session-id ID picks another; massgen --list-sessions lists them)",
        newest.id
    ));
    Some(newest)
}

/// A config's name made comparable: a file resolved against the project directory, with
/// links followed; `@examples/…`, the demo and `--model` setups as they are named.
fn same_config_key(name: &str, project: &Path) -> String {
    let path = project.join(name);
    if path.is_file()
        && let Ok(canonical) = path.canonicalize()
    {
        return canonical.display().to_string();
    }
    name.to_string()
}

/// The first turn of a session's history: the turn after its last `/clear`.
fn history_from(session: &Path) -> u32 {
    read_json_or_skip(&session.join(HISTORY_CLEARED_FILE), METADATA_MAX)
        .and_then(|cleared| cleared["history_from_turn"].as_u64())
        .and_then(|turn| u32::try_from(turn).ok())
        .unwrap_or(1)
}

impl SessionInfo {
    /// The event that tells front ends about the earlier turns.
    pub fn resumed_event(&self) -> EventMsg {
        let mut budget = RECORDED_MAX;
        EventMsg::SessionResumed {
            session_id: self.id.clone(),
            history_from: (self.history_from > 1).then_some(self.history_from),
            notice: self.notice.clone(),
            turns: self
                .turns
                .iter()
                .map(|turn| ResumedTurn {
                    turn: turn.turn,
                    question: turn.question.clone(),
                    winner: turn.winner.as_deref().map(AgentId::new),
                    outcome: outcome_of_status(&turn.status),
                    events: turn
                        .log_dir
                        .as_deref()
                        .map(|dir| recorded_turn(dir, turn.turn, &mut budget))
                        .unwrap_or_default(),
                })
                .collect(),
        }
    }

    /// The store to record further turns in.
    pub fn store(&self) -> SessionStore {
        SessionStore::open(self.dir.clone(), self.id.clone())
    }

    /// The config the session's last logged turn ran with, as that run named it.
    pub fn config_source(&self) -> Option<String> {
        let log_dir = self
            .turns
            .iter()
            .rev()
            .find_map(|turn| turn.log_dir.as_ref())?;
        let metadata = read_json_or_skip(&log_dir.join("execution_metadata.yaml"), METADATA_MAX)?;
        metadata["config_path"].as_str().map(str::to_string)
    }

    /// The turns the conversation history holds: those since the last `/clear`.
    pub fn history_turns(&self) -> impl Iterator<Item = &PastTurn> {
        self.turns
            .iter()
            .filter(move |turn| turn.turn >= self.history_from)
    }

    pub fn next_turn(&self) -> u32 {
        self.turns.iter().map(|turn| turn.turn).max().unwrap_or(0) + 1
    }
}

fn past_turns(session: &Path, unreadable: &mut Vec<String>, budget: &mut u64) -> Vec<PastTurn> {
    let Ok(entries) = std::fs::read_dir(session) else {
        return Vec::new();
    };
    let mut turns: Vec<PastTurn> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let turn: u32 = name.strip_prefix("turn_")?.parse().ok()?;
            past_turn(&entry.path(), turn, budget).unwrap_or_else(|error| {
                unreadable.push(error.to_string());
                None
            })
        })
        .collect();
    turns.sort_by_key(|turn| turn.turn);
    turns
}

/// The turn `dir` records, `None` without a readable `metadata.json`; an error when a file
/// of it is refused, or when the turns listed so far have used up `budget` bytes.
fn past_turn(dir: &Path, turn: u32, budget: &mut u64) -> io::Result<Option<PastTurn>> {
    let listing_full = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "the turn records beside {} come to more than {} MiB in all; massgen reads no \
                 more of them",
                dir.display(),
                LISTED_MAX / MIB
            ),
        )
    };
    if *budget == 0 {
        return Err(listing_full());
    }
    let bytes = match bounded_file::read(&dir.join("metadata.json"), METADATA_MAX.min(*budget)) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) if error.kind() == io::ErrorKind::FileTooLarge && *budget < METADATA_MAX => {
            *budget = 0;
            return Err(listing_full());
        }
        Err(error) => return Err(error),
    };
    *budget = budget.saturating_sub(bytes.len() as u64);
    let Ok(metadata) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Ok(None);
    };
    let text = |key: &str| metadata[key].as_str().map(str::to_string);
    // MassGen marks only a cancelled turn's metadata; a turn with its answer saved is one
    // that completed.
    let answered = std::fs::symlink_metadata(dir.join("answer.txt")).is_ok();
    let status = text("status").unwrap_or_else(|| {
        let outcome = answered.then_some(TurnOutcome::Completed);
        super::store::turn_status(outcome).to_string()
    });
    Ok(Some(PastTurn {
        turn,
        question: text("task").unwrap_or_default(),
        winner: text("winning_agent"),
        status,
        answer: String::new(),
        log_dir: text("log_dir").map(PathBuf::from),
    }))
}
