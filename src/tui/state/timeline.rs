//! The coordination timeline: every answer, vote, restart, error, retry and ending of the
//! turn, in order, as the timeline pane and its full-screen view list them.

use jiff::Timestamp;

use crate::protocol::{AgentId, AnswerLabel, TimeoutScope, TurnOutcome, VoteCount, WinnerBasis};

#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    pub seq: u64,
    pub at: Timestamp,
    /// The agent it is about, if any.
    pub agent: Option<AgentId>,
    pub kind: EntryKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
    TurnStarted {
        turn: u32,
        question: String,
    },
    Restarted {
        round: u32,
        reason: String,
    },
    Answer {
        label: AnswerLabel,
        preview: String,
    },
    Vote {
        target: AgentId,
        target_label: AnswerLabel,
        reason: String,
    },
    VoteIgnored {
        target: AgentId,
        why: String,
    },
    Enforcement {
        attempt: u32,
        max_attempts: u32,
        detail: String,
    },
    Retrying {
        reason: String,
        delay_ms: u64,
        attempt: u32,
        max_retries: u32,
    },
    Error {
        message: String,
    },
    Killed {
        reason: String,
    },
    Winner {
        tally: Vec<VoteCount>,
        is_tie: bool,
        basis: WinnerBasis,
    },
    Presenting {
        label: AnswerLabel,
    },
    FinalDone {
        fallback: bool,
    },
    Timeout {
        scope: TimeoutScope,
        seconds: u64,
    },
    Cancelled,
    HumanInput {
        text: String,
    },
    Warning {
        message: String,
    },
    TurnFinished {
        outcome: TurnOutcome,
        duration_ms: u64,
    },
}

/// `text` on one line, markdown heading and emphasis marks dropped, cut to `max` characters
/// with `…` when anything was cut.
pub fn preview(text: &str, max: usize) -> String {
    let mut flat = String::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('#').trim();
        if line.is_empty() {
            continue;
        }
        if !flat.is_empty() {
            flat.push(' ');
        }
        flat.push_str(line);
        if flat.chars().count() > max {
            break;
        }
    }
    let flat = flat.replace("**", "");
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max).collect();
        format!("{}…", cut.trim_end())
    } else {
        flat
    }
}
