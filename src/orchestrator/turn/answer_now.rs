//! The user's "answer now" (`Op::AnswerNow`, MassGen's Answer Now): refinement ends, the
//! running rounds stop with everything already produced kept, and the vote leader presents
//! the best answer so far, as when coordination settles.

use super::{Driver, Phase};
use crate::orchestrator::coordination::Candidates;
use crate::protocol::{AgentStatus, EventMsg};

impl Driver<'_> {
    /// Ends coordination and starts the presentation if an agent has answered; otherwise
    /// says why not, and the turn goes on as it was.
    pub(super) fn answer_now(&mut self) {
        let refusal = match &self.phase {
            Phase::Coordinating if self.coordination.latest_answers().is_empty() => {
                Some("answer now: no agent has answered yet, so the agents keep working")
            }
            Phase::Coordinating => None,
            Phase::Presenting { .. } | Phase::Evaluating { .. } => {
                Some("answer now: voting is done and the final answer is being presented")
            }
            Phase::Done => Some("answer now: the turn is ending"),
        };
        if let Some(message) = refusal {
            let message = message.to_string();
            self.emit(None, EventMsg::Warning { message });
            return;
        }
        let stopped = self.stop_rounds();
        self.emit(
            None,
            EventMsg::AnswerNow {
                stopped: stopped.clone(),
            },
        );
        for agent in &stopped {
            self.status(agent, AgentStatus::Cancelled);
        }
        // The user asked for this answer: the winner presents it without sending it back
        // for another attempt.
        self.ending.answered_now = true;
        let no_answer = "no agent produced an answer, so there is nothing to present".to_string();
        self.choose_winner(Candidates::AllAnswers, false, no_answer);
    }
}
