//! The cells of planning: planning mode's decision and the calls it blocks, and questions
//! broadcast with `ask_others`, their replies and their timing out.

use super::{PREVIEW, flatten};
use crate::protocol::symbols::{BLOCKED, ERROR, PERSONA, PLANNING_MODE, QUESTION, REPLY};
use crate::protocol::{AgentId, BroadcastTarget, Question};
use crate::text::truncate;

/// `🎭 PERSONA: speed first`, then the persona's start.
pub(super) fn persona(summary: Option<&str>, text: &str) -> Vec<String> {
    let head = format!("{PERSONA} PERSONA: {}", summary.unwrap_or("generated"));
    vec![head, truncate(&flatten(text), PREVIEW)]
}

pub(super) fn planning_mode(irreversible: bool, blocked_tools: &[String]) -> Vec<String> {
    if !irreversible {
        return vec![format!(
            "{PLANNING_MODE} PLANNING MODE: nothing irreversible"
        )];
    }
    vec![
        format!("{PLANNING_MODE} PLANNING MODE: irreversible"),
        if blocked_tools.is_empty() {
            "every MCP tool blocked".to_string()
        } else {
            format!("blocked: {}", blocked_tools.join(", "))
        },
    ]
}

pub(super) fn blocked(tool: &str) -> Vec<String> {
    vec![format!("{BLOCKED} BLOCKED {tool}")]
}

pub(super) fn asked(target: BroadcastTarget, questions: &[Question]) -> Vec<String> {
    vec![
        format!("{QUESTION} ASKED {}", target.name()),
        questions
            .first()
            .map(|question| truncate(&flatten(&question.text), PREVIEW))
            .unwrap_or_default(),
    ]
}

/// A reply from an agent, or from the user (`from` is `None`).
pub(super) fn reply(from: Option<&AgentId>, answer: &str) -> Vec<String> {
    vec![
        format!(
            "{REPLY} REPLY from {}",
            from.map_or("the user", |agent| agent.as_str())
        ),
        format!("\"{}\"", truncate(&flatten(answer), PREVIEW)),
    ]
}

pub(super) fn question_timed_out() -> Vec<String> {
    vec![format!("{ERROR} QUESTION TIMED OUT")]
}
