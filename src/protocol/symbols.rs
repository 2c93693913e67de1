//! The symbol each coordination event is shown with, MassGen's where it has one: one
//! vocabulary for the TUI's coordination table and `coordination_table.txt`.

/// The agent began its first round (and, before a vote's reason, "because").
pub const THINKING: &str = "💭";
/// The answers an agent saw when its round began.
pub const CONTEXT: &str = "📋";
pub const NEW_ANSWER: &str = "✨";
pub const VOTE: &str = "🗳";
pub const VOTE_IGNORED: &str = "⊘";
pub const RESTART: &str = "🔁";
/// The restarted agent began its new round.
pub const RESTART_DONE: &str = "✅";
/// An enforcement retry or a retried model call.
pub const RETRY: &str = "⟳";
pub const REFUSED: &str = "⛔";
/// The user's text reached the agent mid-turn.
pub const UPDATE: &str = "📨";
pub const ERROR: &str = "✗";
pub const WINNER: &str = "🏆";
pub const FINAL_ANSWER: &str = "🎯";
/// Planning mode judged the request (irreversible or not).
pub const PLANNING_MODE: &str = "🛡";
/// The persona an agent works under (`persona_generator`).
pub const PERSONA: &str = "🎭";
/// A tool call planning mode kept from running.
pub const BLOCKED: &str = "🚫";
/// An agent asked a question with `ask_others`.
pub const QUESTION: &str = "📣";
/// A reply to a question.
pub const REPLY: &str = "💬";
/// An agent's context was compressed to fit its model's window (MassGen's 📦).
pub const COMPRESSED: &str = "📦";
/// A round ran past its time limit.
pub const TIMER: &str = "⏱";
/// The winner checks its final answer (post-evaluation).
pub const EVALUATE: &str = "🔍";
/// The fairness lead cap holds an agent back until its peers catch up.
pub const HELD: &str = "⏸";
/// An agent's fairness hold is lifted.
pub const RELEASED: &str = "▶";
/// A `submit_checklist` accepted under checklist-gated voting.
pub const CHECKLIST: &str = "☑";
/// A `draft_approach` accepted: the agent's plan for its next answer.
pub const APPROACH: &str = "🧭";
/// Decomposition mode: an agent's subtask.
pub const SUBTASK: &str = "◆";
/// Decomposition mode: an agent called `stop`, done with its subtask.
pub const STOPPED: &str = "■";
/// The criteria this turn's checklists score.
pub const CRITERIA: &str = "📐";
