//! News about how a round or an attempt goes: peers' answers injected mid-round, round time
//! limits, the winner's check of its final answer and orchestration restarts.

use jiff::Timestamp;

use super::{CardItem, Phase, UiState, VoteTally};
use crate::protocol::{
    AgentId, AnswerLabel, PostEvaluationOutcome, RoundTimeLimit, RoundTimeStage,
};

/// A round with a time limit, as the card counts it down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundClock {
    pub started: Timestamp,
    pub limit: RoundTimeLimit,
}

/// What a card shows of its round's time limit at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundTimeLeft {
    /// Seconds until the wrap-up notice.
    Left(u64),
    /// Past the soft limit: seconds until tools are refused.
    WrapUp(u64),
    /// Only `vote` and `new_answer` are allowed.
    Blocked,
}

impl RoundClock {
    pub fn left_at(&self, now: Timestamp) -> RoundTimeLeft {
        let elapsed_ms = u64::try_from(now.duration_since(self.started).as_millis()).unwrap_or(0);
        let soft = self.limit.soft_ms;
        let hard = soft.saturating_add(self.limit.grace_ms);
        if elapsed_ms < soft {
            RoundTimeLeft::Left((soft - elapsed_ms).div_ceil(1000))
        } else if elapsed_ms < hard {
            RoundTimeLeft::WrapUp((hard - elapsed_ms).div_ceil(1000))
        } else {
            RoundTimeLeft::Blocked
        }
    }
}

impl UiState {
    /// Peers' answers reached the agent mid-round.
    pub(super) fn update_injected(&mut self, agent: Option<&AgentId>, labels: &[AnswerLabel]) {
        let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
        let notice = format!("📨 update received: {} (keeps working)", labels.join(", "));
        self.notice(agent, notice);
    }

    pub(super) fn round_time_limit(&mut self, agent: Option<&AgentId>, stage: RoundTimeStage) {
        let notice = match stage {
            RoundTimeStage::WrapUp => "⏱ round time limit: told to wrap up",
            RoundTimeStage::Blocked => {
                "⏱ round time limit passed: only vote and new_answer allowed"
            }
        };
        self.notice(agent, notice.to_string());
    }

    pub(super) fn post_evaluation_started(
        &mut self,
        agent: Option<&AgentId>,
        attempt: u32,
        max_attempts: u32,
    ) {
        self.attempt = Some((attempt, max_attempts));
        self.notice(
            agent,
            "🔍 checking the final answer before it goes to you".into(),
        );
    }

    pub(super) fn post_evaluation_finished(
        &mut self,
        agent: Option<&AgentId>,
        outcome: &PostEvaluationOutcome,
    ) {
        let notice = match outcome {
            PostEvaluationOutcome::Submitted => "✓ final answer confirmed".into(),
            PostEvaluationOutcome::RestartRequested { reason, .. } => {
                format!("↻ asks for another attempt: {reason}")
            }
            PostEvaluationOutcome::Failed { message } => {
                format!("the check failed ({message}); the answer stands")
            }
        };
        self.notice(agent, notice);
    }

    fn notice(&mut self, agent: Option<&AgentId>, notice: String) {
        let Some(agent) = agent else {
            return;
        };
        if let Some(card) = self.agents.iter_mut().find(|card| &card.info.id == agent) {
            card.items.push(CardItem::Notice(notice));
        }
    }

    /// A new attempt: no winner and no votes; every card keeps what the last attempt
    /// produced under a banner.
    pub(super) fn restart_attempt(&mut self, attempt: u32, max_attempts: u32, reason: &str) {
        self.attempt = Some((attempt, max_attempts));
        self.winner = None;
        self.votes = VoteTally::default();
        if self.phase != Phase::Idle {
            self.phase = Phase::Coordinating;
        }
        for card in &mut self.agents {
            card.is_winner = false;
            card.round = 0;
            card.round_clock = None;
            card.items.push(CardItem::Notice(format!(
                "── attempt {attempt}/{max_attempts}: {reason} ──"
            )));
        }
    }
}
