//! A continued session's answers read back, for its conversation history: each turn's
//! `answer.txt`, or for a turn without one a note with the agents' latest answers (from
//! `partial_answers.json`, else its event log) — each file within its bound, and all of
//! them together within [`HISTORY_MAX`].

use std::io;
use std::path::Path;

use serde_json::Value;

use super::event_lines::EventLines;
use super::resume::{PastTurn, SessionInfo};
use super::state_files::{ANSWER_MAX, HISTORY_MAX, PARTIAL_ANSWERS_MAX, read_json};
use crate::bounded_file::{self, MIB};
use crate::protocol::{Event, EventMsg};

impl SessionInfo {
    /// Fills in the answers of the turns the history holds. A file refused by its bound
    /// (or by its type) stops the continuation with a message naming it.
    pub fn read_answers(&mut self) -> Result<(), String> {
        if let Some(problem) = self.unreadable.first() {
            return Err(self.refusal(problem));
        }
        let mut total: u64 = 0;
        let history_from = self.history_from;
        for index in 0..self.turns.len() {
            if self.turns[index].turn < history_from {
                continue;
            }
            let dir = self.dir.join(format!("turn_{}", self.turns[index].turn));
            let answer = turn_answer(&dir, &self.turns[index])
                .map_err(|error| self.refusal(&error.to_string()))?;
            total = total.saturating_add(answer.len() as u64);
            if total > HISTORY_MAX {
                return Err(self.too_long());
            }
            self.turns[index].answer = answer;
        }
        Ok(())
    }

    fn refusal(&self, problem: &str) -> String {
        format!(
            "cannot continue session {}: {problem}\n  help: remove that file (or its turn_N \
             directory) from {}, or run without --continue / --session-id",
            self.id,
            self.dir.display()
        )
    }

    fn too_long(&self) -> String {
        format!(
            "cannot continue session {}: its answers come to more than {} MiB, more than any \
             model takes\n  help: run without --continue / --session-id to start a new session",
            self.id,
            HISTORY_MAX / MIB
        )
    }
}

/// The turn's final answer, or what the history says about a turn without one.
fn turn_answer(dir: &Path, turn: &PastTurn) -> io::Result<String> {
    match bounded_file::read(&dir.join("answer.txt"), ANSWER_MAX) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => cancelled_note(dir, turn),
        Err(error) => Err(error),
    }
}

/// What the next turn's history says about a turn that ended without a final answer. A
/// turn cut short by a kill has no `partial_answers.json`: its event log tells instead.
fn cancelled_note(dir: &Path, turn: &PastTurn) -> io::Result<String> {
    let partial = match read_json(&dir.join("partial_answers.json"), PARTIAL_ANSWERS_MAX)? {
        Some(partial) => partial,
        None => match &turn.log_dir {
            Some(log_dir) => logged_answers(&log_dir.join("events.jsonl"), turn.turn)?,
            None => Value::Null,
        },
    };
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
    Ok(note)
}

/// Each agent's latest answer in `turn` of the event log, streamed; `Null` when the log is
/// gone or damaged (it is only a fallback). A log refused by type or line length is an error.
fn logged_answers(log: &Path, turn: u32) -> io::Result<Value> {
    let mut lines = match EventLines::open(log) {
        Ok(lines) => lines,
        Err(error) if error.kind() == io::ErrorKind::InvalidInput => return Err(error),
        Err(_) => return Ok(Value::Null),
    };
    let mut latest: Vec<Event> = Vec::new();
    let mut kept: u64 = 0;
    loop {
        let event = match lines.next_event() {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(error) if error.kind() == io::ErrorKind::FileTooLarge => return Err(error),
            Err(_) => break,
        };
        let EventMsg::AnswerSubmitted { content, .. } = &event.msg else {
            continue;
        };
        if event.turn != turn || event.agent.is_none() {
            continue;
        }
        kept = kept.saturating_add(content.len() as u64);
        match latest
            .iter_mut()
            .find(|earlier| earlier.agent == event.agent)
        {
            Some(earlier) => {
                kept = kept.saturating_sub(answer_len(earlier));
                *earlier = event;
            }
            None => latest.push(event),
        }
        if kept > PARTIAL_ANSWERS_MAX {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "{} holds more than {} MiB of latest answers for turn {turn}",
                    log.display(),
                    PARTIAL_ANSWERS_MAX / MIB
                ),
            ));
        }
    }
    Ok(super::store::partial_answers(&latest, turn))
}

fn answer_len(event: &Event) -> u64 {
    match &event.msg {
        EventMsg::AnswerSubmitted { content, .. } => content.len() as u64,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn session_with_answers(dir: &Path, answers: &[usize]) -> SessionInfo {
        let session = dir.join("sessions/session_20260101_000000");
        for (index, bytes) in answers.iter().enumerate() {
            let turn = session.join(format!("turn_{}", index + 1));
            std::fs::create_dir_all(&turn).unwrap();
            std::fs::write(turn.join("metadata.json"), r#"{"task": "q"}"#).unwrap();
            std::fs::write(turn.join("answer.txt"), "a".repeat(*bytes)).unwrap();
        }
        crate::session::list_sessions(dir).unwrap().remove(0)
    }

    #[test]
    fn answers_are_read_only_within_the_history_bound_in_all() {
        let dir = tempfile::tempdir().unwrap();
        let eight = usize::try_from(8 * MIB).unwrap();
        let mut session = session_with_answers(dir.path(), &[eight, 10]);
        session.read_answers().unwrap();
        assert_eq!(session.turns[1].answer, "a".repeat(10));
        let mut session = session_with_answers(dir.path(), &[eight, eight, eight]);
        let error = session.read_answers().unwrap_err();
        assert!(error.contains("more than 16 MiB"), "{error}");
        assert!(error.contains("start a new session"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn turns_before_a_clear_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_with_answers(dir.path(), &[3, 4]);
        std::fs::remove_file(session.dir.join("turn_1/answer.txt")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", session.dir.join("turn_1/answer.txt")).unwrap();
        session.history_from = 2;
        session.read_answers().unwrap();
        assert_eq!(session.turns[1].answer, "aaaa");
    }
}
