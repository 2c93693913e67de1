//! Finding earlier sessions and picking one up again: `--list-sessions`, `--continue` and
//! `--session-id`. A session's turns are read back from `turn_N/metadata.json` and
//! `answer.txt`; a cancelled turn becomes a history entry that says what was cancelled;
//! `/clear` is remembered in `history_cleared.json`, so the turns before it stay out of
//! the history. `--continue` prefers the newest session run with the same config. Front
//! ends get each turn's recorded events too, to show it as it ran.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::SessionStore;
use super::recorded::recorded_turn;
use super::store::outcome_of_status;
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
}

/// The file a session keeps `/clear` in: the first turn of the history after it.
pub const HISTORY_CLEARED_FILE: &str = "history_cleared.json";

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
                history_from: history_from(&entry.path()),
                dir: entry.path(),
                id,
                notice: None,
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

/// The newest session with turns run with `config`, or else the newest with turns.
fn newest_of(sessions: Vec<SessionInfo>, config: Option<(&str, &Path)>) -> Option<SessionInfo> {
    let mut with_turns = sessions
        .into_iter()
        .filter(|session| !session.turns.is_empty());
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
    std::fs::read(session.join(HISTORY_CLEARED_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|cleared| cleared["history_from_turn"].as_u64())
        .and_then(|turn| u32::try_from(turn).ok())
        .unwrap_or(1)
}

impl SessionInfo {
    /// The event that tells front ends about the earlier turns.
    pub fn resumed_event(&self) -> EventMsg {
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

    /// The config the session's last logged turn ran with, as that run named it.
    pub fn config_source(&self) -> Option<String> {
        let log_dir = self
            .turns
            .iter()
            .rev()
            .find_map(|turn| turn.log_dir.as_ref())?;
        let metadata: Value =
            serde_json::from_slice(&std::fs::read(log_dir.join("execution_metadata.yaml")).ok()?)
                .ok()?;
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
    let answered = std::fs::read_to_string(dir.join("answer.txt")).ok();
    // MassGen marks only a cancelled turn's metadata; a turn with its answer saved is one
    // that completed.
    let status = text("status").unwrap_or_else(|| {
        let outcome = answered.as_ref().map(|_| TurnOutcome::Completed);
        super::store::turn_status(outcome).to_string()
    });
    let answer = answered.unwrap_or_else(|| cancelled_note(dir, &metadata));
    Some(PastTurn {
        turn,
        question: text("task").unwrap_or_default(),
        winner: text("winning_agent"),
        status,
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
            let events = super::derived::read_compacted(&log).ok()?;
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
