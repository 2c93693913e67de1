//! `Op::OverrideFinal` between turns: the user picks another answer of the turn that just
//! ended as its final answer. The conversation history the next turn sees holds it, the
//! turn's `events.jsonl` gets the `FinalOverridden` event, and the files derived from it
//! are written again: the log's coordination files and the session's `turn_N/answer.txt`
//! (what `--continue` reads back) and `metadata.json`.

use std::path::PathBuf;

use super::emitter::Emitter;
use super::prompts::HistoryEntry;
use super::run_logs::Logs;
use crate::protocol::{AgentId, AnswerLabel, EventMsg};
use crate::session::TurnLog;

/// What an override after the turn needs of the turn that ended last.
#[derive(Clone, Debug, Default)]
pub struct LastTurn {
    pub number: u32,
    pub question: String,
    /// A winner was chosen: voting is done.
    pub voted: bool,
    /// Every answer of the turn: label, author, text.
    pub answers: Vec<(AnswerLabel, AgentId, String)>,
    /// The turn's entry in the history, when it left one.
    pub in_history: Option<usize>,
    /// The attempt directory holding the turn's `events.jsonl`, if it was logged.
    pub log_dir: Option<PathBuf>,
}

/// Makes the answer `label` of `last` the final answer; a warning says why not when it
/// cannot be.
pub async fn override_last(
    last: Option<&mut LastTurn>,
    label: &AnswerLabel,
    history: &mut Vec<HistoryEntry>,
    emitter: &mut Emitter,
    logs: &Logs,
) {
    let Some(last) = last.filter(|last| last.voted) else {
        let message = "override is available once voting is done".to_string();
        emitter.emit(None, EventMsg::Warning { message });
        return;
    };
    let Some((_, author, content)) = last
        .answers
        .iter()
        .find(|(known, _, _)| known == label)
        .cloned()
    else {
        let message = format!("override: turn {} has no answer {label}", last.number);
        emitter.emit(None, EventMsg::Warning { message });
        return;
    };
    match last.in_history.and_then(|at| history.get_mut(at)) {
        Some(entry) => entry.answer.clone_from(&content),
        None => {
            last.in_history = Some(history.len());
            history.push(HistoryEntry {
                question: last.question.clone(),
                answer: content.clone(),
            });
        }
    }
    // The event belongs to the turn it changes, and goes to that turn's event log.
    let log = last.log_dir.clone().and_then(|dir| TurnLog::open(dir).ok());
    emitter.begin_turn(last.number, log);
    emitter.emit(
        Some(&author),
        EventMsg::FinalOverridden {
            label: label.clone(),
            agent: author.clone(),
            content: content.clone(),
        },
    );
    let rewritten = match emitter.end_turn() {
        Some(log) => logs.rewrite_turn(last.number, log).await,
        None => logs.override_answer(last.number, content).await,
    };
    if let Err(problem) = rewritten {
        emitter.emit(None, EventMsg::Warning { message: problem });
    }
}
