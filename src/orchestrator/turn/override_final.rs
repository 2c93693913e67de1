//! The user's override of the final answer (`Op::OverrideFinal`) while the turn runs:
//! once voting is done, the chosen answer replaces the presentation (or its check).

use super::{Driver, Phase};
use crate::protocol::{AgentStatus, AnswerLabel, EventMsg};

impl Driver<'_> {
    /// Presents the answer `label` as the final answer if voting is done; otherwise says
    /// why not, and the turn goes on as it was.
    pub(super) fn override_final(&mut self, label: &AnswerLabel) {
        let refusal = match &self.phase {
            Phase::Coordinating => Some("override is available once voting is done".to_string()),
            Phase::Done => Some("the turn is ending; override it once it has ended".to_string()),
            Phase::Presenting { .. } | Phase::Evaluating { .. } => None,
        };
        if let Some(message) = refusal {
            self.emit(None, EventMsg::Warning { message });
            return;
        }
        let Some((author, content)) = self
            .coordination
            .answer_by_label(label)
            .map(|(author, content)| (author, content.to_string()))
        else {
            let message = format!("override: this turn has no answer {label}");
            self.emit(None, EventMsg::Warning { message });
            return;
        };
        if let Some(running) = self.presentation.take() {
            running.stop();
        }
        let previous = self.ending.winner.replace(author.clone());
        if let Some(previous) = previous.filter(|previous| previous != &author) {
            self.status(&previous, AgentStatus::Done);
        }
        let deadline = match &self.phase {
            Phase::Presenting { deadline, .. } | Phase::Evaluating { deadline, .. } => *deadline,
            Phase::Coordinating | Phase::Done => return,
        };
        self.emit(
            Some(&author),
            EventMsg::FinalOverridden {
                label: label.clone(),
                agent: author.clone(),
                content: content.clone(),
            },
        );
        self.phase = Phase::Presenting {
            winner: author,
            label: label.clone(),
            started: tokio::time::Instant::now(),
            deadline,
        };
        // The user chose it: no check by the winner, no fallback.
        self.deliver_final_answer(content, false);
    }
}
