//! The session store: `.massgen/sessions/session_<YYYYMMDD_HHMMSS>/turn_N/` with the turn's
//! `answer.txt` and `metadata.json` (MassGen's fields; a cancelled turn is marked
//! incomplete and keeps each agent's latest answer in `partial_answers.json`), and a
//! `SESSION_SUMMARY.txt` over every turn. All of it is derived from the turn's events;
//! the turn's `events.jsonl` and workspaces are linked from its log directory.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::log_dir::create_fresh_dir;
use super::state_files::{METADATA_MAX, path_json, read_json_or_skip};
use super::turn_links::link_turn_files;
use super::{pretty_json as pretty, write_atomic};
use crate::protocol::{Event, EventMsg, TurnOutcome};

/// The file a session keeps `/clear` in: the first turn of the history after it.
pub const HISTORY_CLEARED_FILE: &str = "history_cleared.json";

/// How a turn ended, as the orchestrator knows it: it outranks the turn's event log, which
/// may have stopped early (a full disk) and would make a completed turn look cut off.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnEnding {
    pub task: String,
    pub outcome: TurnOutcome,
    pub winner: Option<String>,
    pub answer: Option<String>,
}

#[derive(Clone, Debug)]
pub struct SessionStore {
    dir: PathBuf,
    id: String,
    /// `~/.massgen/sessions.json` to keep up to date, if any.
    registry: Option<PathBuf>,
}

impl SessionStore {
    /// A new session directory under `<massgen_dir>/sessions/`, named after the local time.
    pub fn create(massgen_dir: &Path) -> io::Result<Self> {
        let sessions = massgen_dir.join("sessions");
        std::fs::create_dir_all(&sessions)?;
        let stamp = crate::local_time::now()
            .strftime("%Y%m%d_%H%M%S")
            .to_string();
        let dir = create_fresh_dir(&sessions, &format!("session_{stamp}"))?;
        let id = dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Held by this run, so that `--continue` elsewhere does not append to it meanwhile.
        super::hold_session(&dir, &id).map_err(io::Error::other)?;
        Ok(Self {
            dir,
            id,
            registry: None,
        })
    }

    /// Keeps `registry` (`~/.massgen/sessions.json`) up to date with this session.
    #[must_use]
    pub fn with_registry(mut self, registry: Option<PathBuf>) -> Self {
        self.registry = registry;
        self
    }

    /// An existing session, to record more turns in.
    pub fn open(dir: PathBuf, id: String) -> Self {
        Self {
            dir,
            id,
            registry: None,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Marks `turn_N/` as started: a run killed during the turn leaves an incomplete turn
    /// that points at its event log, from which `--continue` recovers what it can.
    pub fn begin_turn(&self, turn: u32, question: &str, log_dir: Option<&Path>) -> io::Result<()> {
        let dir = self.dir.join(format!("turn_{turn}"));
        std::fs::create_dir_all(&dir)?;
        let metadata = json!({
            "turn": turn,
            "timestamp": jiff::Timestamp::now().to_string(),
            "task": question,
            "session_id": self.id,
            "status": turn_status(None),
            "phase": "coordination",
            "log_dir": log_dir.map(path_json),
        });
        write_atomic(&dir.join("metadata.json"), &pretty(&metadata))?;
        if let Some(log_dir) = log_dir {
            link_turn_files(&dir, log_dir, None)?;
        }
        self.write_summary()?;
        self.register(turn as usize, question, "incomplete")
    }

    /// Remembers a `/clear`: a continued session's history starts at `next_turn`.
    pub fn record_history_cleared(&self, next_turn: u32) -> io::Result<()> {
        let cleared = json!({
            "history_from_turn": next_turn,
            "timestamp": jiff::Timestamp::now().to_string(),
        });
        write_atomic(&self.dir.join(HISTORY_CLEARED_FILE), &pretty(&cleared))
    }

    /// Updates this session's entry in `~/.massgen/sessions.json`. A registry that cannot
    /// be written (a read-only home) does not stop the session.
    fn register(&self, turns: usize, last_task: &str, status: &str) -> io::Result<()> {
        if let Some(registry) = &self.registry
            && let Err(error) =
                super::register(registry, &self.id, &self.dir, turns, last_task, status)
        {
            tracing::warn!(path = %registry.display(), %error, "the session registry was not updated");
        }
        Ok(())
    }

    /// Writes `turn_N/` from the turn's events and rewrites the session summary.
    pub fn record_turn(
        &self,
        turn: u32,
        events: &[Event],
        log_dir: Option<&Path>,
        ending: Option<&TurnEnding>,
    ) -> io::Result<()> {
        let mut record = TurnRecord::from_events(turn, events);
        if let Some(ending) = ending {
            record.settle(ending);
        }
        let dir = self.dir.join(format!("turn_{turn}"));
        std::fs::create_dir_all(&dir)?;
        if let Some(answer) = &record.answer {
            write_atomic(&dir.join("answer.txt"), answer.as_bytes())?;
        }
        let mut metadata = record.metadata(&self.id);
        metadata["log_dir"] = log_dir.map_or(Value::Null, path_json);
        if let Some(log_dir) = log_dir {
            link_turn_files(&dir, log_dir, record.winner.as_deref())?;
        }
        write_atomic(&dir.join("metadata.json"), &pretty(&metadata))?;
        if record.outcome != Some(TurnOutcome::Completed) {
            write_atomic(
                &dir.join("partial_answers.json"),
                &pretty(&record.partial_answers()),
            )?;
        }
        self.write_summary()?;
        let status = if record.outcome == Some(TurnOutcome::Completed) {
            "complete"
        } else {
            "incomplete"
        };
        self.register(turn as usize, &record.task, status)
    }

    /// `SESSION_SUMMARY.txt` and `winning_agents_history.json`, read back from the
    /// recorded turns' metadata.
    fn write_summary(&self) -> io::Result<()> {
        let turns = self.recorded_turns()?;
        self.write_summary_text(&turns)?;
        self.write_winners(&turns)
    }

    /// `winning_agents_history.json` as MassGen keeps it for its `--continue` (the winner
    /// of each turn that presented an answer: `{"agent_id", "turn"}`), so MassGen can go on
    /// with a session massgen started.
    fn write_winners(&self, turns: &[(u32, Value)]) -> io::Result<()> {
        let winners: Vec<Value> = turns
            .iter()
            .filter(|(_, metadata)| {
                [TurnOutcome::Completed, TurnOutcome::TimedOut]
                    .iter()
                    .any(|outcome| metadata["status"] == turn_status(Some(*outcome)))
            })
            .filter_map(|(number, metadata)| {
                let winner = metadata["winning_agent"].as_str()?;
                Some(json!({"agent_id": winner, "turn": number}))
            })
            .collect();
        write_atomic(
            &self.dir.join("winning_agents_history.json"),
            &pretty(&json!(winners)),
        )
    }

    /// Every `turn_N/metadata.json` of the session, in turn order.
    fn recorded_turns(&self) -> io::Result<Vec<(u32, Value)>> {
        let mut turns: Vec<(u32, Value)> = Vec::new();
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(number) = name.strip_prefix("turn_").and_then(|n| n.parse().ok()) else {
                continue;
            };
            if let Some(metadata) =
                read_json_or_skip(&entry.path().join("metadata.json"), METADATA_MAX)
            {
                turns.push((number, metadata));
            }
        }
        turns.sort_by_key(|(number, _)| *number);
        Ok(turns)
    }

    /// `SESSION_SUMMARY.txt`: one block per recorded turn.
    fn write_summary_text(&self, turns: &[(u32, Value)]) -> io::Result<()> {
        let mut summary = format!(
            "MassGen session {}\n{}\n",
            self.id,
            crate::text::plural(turns.len(), "turn")
        );
        for (number, metadata) in turns {
            let text = |key: &str| metadata[key].as_str().unwrap_or("-").to_string();
            let _ = write!(
                summary,
                "\nTurn {number} ({status}, {time})\n  Task: {task}\n  Winner: {winner}\n",
                status = text("status"),
                time = text("timestamp"),
                task = text("task"),
                winner = text("winning_agent"),
            );
        }
        write_atomic(&self.dir.join("SESSION_SUMMARY.txt"), summary.as_bytes())
    }
}

/// The `status` a turn's `metadata.json` records for how it ended; `None` is a turn that
/// is running, or was cut short.
pub fn turn_status(outcome: Option<TurnOutcome>) -> &'static str {
    match outcome {
        Some(TurnOutcome::Completed) => "complete",
        Some(TurnOutcome::TimedOut) => "timed_out",
        Some(TurnOutcome::Failed) => "failed",
        Some(TurnOutcome::Cancelled) | None => "incomplete",
    }
}

/// The outcome a recorded `status` stands for (an unknown one counts as cut short).
pub fn outcome_of_status(status: &str) -> TurnOutcome {
    [
        TurnOutcome::Completed,
        TurnOutcome::TimedOut,
        TurnOutcome::Failed,
    ]
    .into_iter()
    .find(|outcome| turn_status(Some(*outcome)) == status)
    .unwrap_or(TurnOutcome::Cancelled)
}

/// Each agent's latest answer in the turn's events, by agent id.
pub fn partial_answers(events: &[Event], turn: u32) -> Value {
    TurnRecord::from_events(turn, events).partial_answers()
}

/// What a turn's events say about it, for the session store.
struct TurnRecord {
    turn: u32,
    task: String,
    started: Option<String>,
    models: serde_json::Map<String, Value>,
    winner: Option<String>,
    outcome: Option<TurnOutcome>,
    answer: Option<String>,
    /// Each agent's latest answer, config order.
    latest_answers: Vec<(String, String)>,
    voting_started: bool,
    presenting: bool,
}

impl TurnRecord {
    fn from_events(turn: u32, events: &[Event]) -> Self {
        let mut record = Self {
            turn,
            task: String::new(),
            started: None,
            models: serde_json::Map::new(),
            winner: None,
            outcome: None,
            answer: None,
            latest_answers: Vec::new(),
            voting_started: false,
            presenting: false,
        };
        for event in events.iter().filter(|event| event.turn == turn) {
            let agent = event.agent.as_ref().map(ToString::to_string);
            if let EventMsg::TurnStarted {
                question, agents, ..
            } = &event.msg
            {
                record.task.clone_from(question);
                record.started = Some(event.at.to_string());
                for info in agents {
                    record.models.insert(
                        info.id.to_string(),
                        json!(format!("{}/{}", info.backend, info.model)),
                    );
                }
            } else if let (EventMsg::AnswerSubmitted { content, .. }, Some(agent)) =
                (&event.msg, agent)
            {
                match record
                    .latest_answers
                    .iter_mut()
                    .find(|(id, _)| *id == agent)
                {
                    Some((_, latest)) => latest.clone_from(content),
                    None => record.latest_answers.push((agent, content.clone())),
                }
            } else if let EventMsg::VoteCast { .. } = &event.msg {
                record.voting_started = true;
            } else if let EventMsg::WinnerSelected { winner, .. } = &event.msg {
                record.winner = Some(winner.to_string());
            } else if let EventMsg::FinalPresentationStarted { .. } = &event.msg {
                record.presenting = true;
            } else if let EventMsg::FinalPresentationDone { content, .. } = &event.msg {
                record.answer = Some(content.clone());
            } else if let EventMsg::FinalOverridden { agent, content, .. } = &event.msg {
                // The user's choice (Ctrl+O) is the final answer, and its author the winner.
                record.answer = Some(content.clone());
                record.winner = Some(agent.to_string());
            } else if let EventMsg::TurnFinished { outcome, .. } = &event.msg {
                record.outcome = Some(*outcome);
            }
        }
        record
    }

    /// Takes what the orchestrator knows over what the (possibly cut) events said.
    fn settle(&mut self, ending: &TurnEnding) {
        if self.task.is_empty() {
            self.task.clone_from(&ending.task);
        }
        self.outcome = Some(ending.outcome);
        if ending.winner.is_some() {
            self.winner.clone_from(&ending.winner);
        }
        if ending.answer.is_some() {
            self.answer.clone_from(&ending.answer);
        }
    }

    fn partial_answers(&self) -> Value {
        Value::Object(
            self.latest_answers
                .iter()
                .map(|(agent, answer)| (agent.clone(), json!(answer)))
                .collect(),
        )
    }

    fn metadata(&self, session_id: &str) -> Value {
        let mut metadata = json!({
            "turn": self.turn,
            "timestamp": self.started,
            "winning_agent": self.winner,
            "task": self.task,
            "session_id": session_id,
            "models": self.models,
            "winning_model": self.winner.as_ref().and_then(|winner| self.models.get(winner)),
            "status": turn_status(self.outcome),
        });
        if self.outcome != Some(TurnOutcome::Completed) {
            metadata["phase"] = json!(if self.presenting {
                "presentation"
            } else if self.voting_started {
                "voting"
            } else {
                "coordination"
            });
            metadata["voting_complete"] = json!(self.winner.is_some());
        }
        metadata
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
