//! Finding earlier sessions and picking one up again: `--list-sessions`, `--continue` and
//! `--session-id`. A session's turns are read back from `turn_N/metadata.json` and
//! `answer.txt`; a cancelled turn becomes a history entry that says what was cancelled.
//! Front ends get each turn's recorded events too, to show it as it ran.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::SessionStore;
use super::recorded::recorded_turn;
use super::store::outcome_of_status;
use crate::protocol::{AgentId, EventMsg, ResumedTurn};

/// One earlier session, as `--list-sessions` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionInfo {
    pub id: String,
    pub dir: PathBuf,
    pub turns: Vec<PastTurn>,
}

/// A recorded turn: what was asked and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct PastTurn {
    pub turn: u32,
    pub question: String,
    pub winner: Option<String>,
    pub status: String,
    /// The final answer, or for a cancelled turn a note with the agents' latest answers.
    pub answer: String,
    /// The attempt directory holding the turn's `events.jsonl`, if it was logged.
    pub log_dir: Option<PathBuf>,
}

/// Every session under `<massgen_dir>/sessions/`, newest first.
pub fn list_sessions(massgen_dir: &Path) -> io::Result<Vec<SessionInfo>> {
    let root = massgen_dir.join("sessions");
    let mut sessions = Vec::new();
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(sessions),
        Err(error) => return Err(error),
    };
    for entry in entries {
        let entry = entry?;
        let id = entry.file_name().to_string_lossy().into_owned();
        if id.starts_with("session_") && entry.path().is_dir() {
            sessions.push(SessionInfo {
                turns: past_turns(&entry.path()),
                dir: entry.path(),
                id,
            });
        }
    }
    // Names hold the start time, so they sort by age.
    sessions.sort_by(|a, b| b.id.cmp(&a.id));
    Ok(sessions)
}

/// The session to continue: `id` if given, else the newest one with turns. This run holds
/// it from now on; one that another run holds is refused.
pub fn find_session(massgen_dir: &Path, id: Option<&str>) -> Result<SessionInfo, String> {
    let sessions = list_sessions(massgen_dir)
        .map_err(|error| format!("cannot read {}: {error}", massgen_dir.display()))?;
    let found = match id {
        Some(id) => sessions.into_iter().find(|session| session.id == id),
        None => sessions
            .into_iter()
            .find(|session| !session.turns.is_empty()),
    };
    let found = found.ok_or_else(|| match id {
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
    // Held for the rest of the run: no other run may append to it meanwhile.
    super::hold_session(&found.dir, &found.id)?;
    Ok(found)
}

impl SessionInfo {
    /// The event that tells front ends about the earlier turns.
    pub fn resumed_event(&self) -> EventMsg {
        EventMsg::SessionResumed {
            session_id: self.id.clone(),
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
                        .map(|dir| recorded_turn(dir, turn.turn))
                        .unwrap_or_default(),
                })
                .collect(),
        }
    }

    /// The store to record further turns in.
    pub fn store(&self) -> SessionStore {
        SessionStore::open(self.dir.clone(), self.id.clone())
    }

    pub fn next_turn(&self) -> u32 {
        self.turns.iter().map(|turn| turn.turn).max().unwrap_or(0) + 1
    }
}

fn past_turns(session: &Path) -> Vec<PastTurn> {
    let Ok(entries) = std::fs::read_dir(session) else {
        return Vec::new();
    };
    let mut turns: Vec<PastTurn> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let turn: u32 = name.strip_prefix("turn_")?.parse().ok()?;
            past_turn(&entry.path(), turn)
        })
        .collect();
    turns.sort_by_key(|turn| turn.turn);
    turns
}

fn past_turn(dir: &Path, turn: u32) -> Option<PastTurn> {
    let metadata: Value =
        serde_json::from_slice(&std::fs::read(dir.join("metadata.json")).ok()?).ok()?;
    let text = |key: &str| metadata[key].as_str().map(str::to_string);
    let answer = match std::fs::read_to_string(dir.join("answer.txt")) {
        Ok(answer) => answer,
        Err(_) => cancelled_note(dir, &metadata),
    };
    Some(PastTurn {
        turn,
        question: text("task").unwrap_or_default(),
        winner: text("winning_agent"),
        status: text("status").unwrap_or_else(|| "unknown".into()),
        answer,
        log_dir: text("log_dir").map(PathBuf::from),
    })
}

/// What the next turn's history says about a turn that ended without a final answer. A
/// turn cut short by a kill has no `partial_answers.json`: its event log tells instead.
fn cancelled_note(dir: &Path, metadata: &Value) -> String {
    let partial: Value = std::fs::read(dir.join("partial_answers.json"))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .or_else(|| {
            let log = PathBuf::from(metadata["log_dir"].as_str()?).join("events.jsonl");
            let events = super::read_events(&log).ok()?;
            let turn = u32::try_from(metadata["turn"].as_u64()?).ok()?;
            Some(super::store::partial_answers(&events, turn))
        })
        .unwrap_or(Value::Null);
    let mut note = String::from("[This turn was cancelled before a final answer was presented.");
    match partial.as_object().filter(|answers| !answers.is_empty()) {
        Some(answers) => {
            note.push_str(" The agents' latest answers were:");
            for (agent, answer) in answers {
                note.push_str(&format!(
                    "\n- {agent}: {}",
                    answer.as_str().unwrap_or_default()
                ));
            }
            note.push(']');
        }
        None => note.push_str(" No agent had answered yet.]"),
    }
    note
}
