//! Ctrl+G, "answer now" (MassGen's Answer Now): while agents refine, it asks the
//! orchestrator to end refinement and have the vote leader present the best answer so far.

use super::{App, Effect};
use crate::protocol::Op;
use crate::tui::state::Phase;

/// What the notice says when the request goes out.
pub(super) const ANSWER_NOW_SENT: &str =
    "⚡ answer now: refinement ends and the leader presents the best answer so far";

impl App {
    /// Sends `Op::AnswerNow` while agents work; otherwise a notice says why not.
    pub(super) fn answer_now(&mut self) -> Vec<Effect> {
        if self.is_replay() {
            return vec![Effect::Send(Op::AnswerNow)];
        }
        let refusal = match self.state.turn.phase {
            Phase::Idle => Some("answer now works while a turn runs"),
            Phase::Presenting => Some("voting is done: the final answer is being presented"),
            Phase::Coordinating | Phase::Voting => None,
        };
        if let Some(refusal) = refusal {
            self.view.notice = Some(refusal.into());
            return Vec::new();
        }
        self.view.notice = Some(ANSWER_NOW_SENT.into());
        vec![Effect::Send(Op::AnswerNow)]
    }
}
