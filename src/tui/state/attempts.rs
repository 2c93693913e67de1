//! How a round or an attempt goes, as a card shows it: the round's time limit counted
//! down, and the notices for peers' answers injected mid-round, the limit reached and the
//! winner's check of its final answer.

use jiff::Timestamp;

use crate::protocol::{AnswerLabel, PostEvaluationOutcome, RoundTimeLimit, RoundTimeStage};

/// A round with a time limit, as the card counts it down. The grace is counted from the
/// moment the wrap-up notice reached the agent (with its next tool result), as the
/// orchestrator counts it, not from the soft limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundClock {
    pub started: Timestamp,
    pub limit: RoundTimeLimit,
    /// When the agent was told to wrap up.
    pub notified: Option<Timestamp>,
    /// Whether a tool call was already refused.
    pub blocked: bool,
}

/// What a card shows of its round's time limit at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundTimeLeft {
    /// Seconds until the wrap-up notice is due.
    Left(u64),
    /// Past the soft limit: seconds until tools are refused (the whole grace until the
    /// notice reaches the agent with its next tool result).
    WrapUp(u64),
    /// Only `vote` and `new_answer` are allowed.
    Blocked,
}

impl RoundClock {
    pub fn new(started: Timestamp, limit: RoundTimeLimit) -> Self {
        Self {
            started,
            limit,
            notified: None,
            blocked: false,
        }
    }

    pub fn left_at(&self, now: Timestamp) -> RoundTimeLeft {
        let since =
            |from: Timestamp| u64::try_from(now.duration_since(from).as_millis()).unwrap_or(0);
        let grace = self.limit.grace_ms;
        match self.notified {
            _ if self.blocked => RoundTimeLeft::Blocked,
            Some(at) if since(at) >= grace => RoundTimeLeft::Blocked,
            Some(at) => RoundTimeLeft::WrapUp((grace - since(at)).div_ceil(1000)),
            None if since(self.started) >= self.limit.soft_ms => {
                RoundTimeLeft::WrapUp(grace.div_ceil(1000))
            }
            None => RoundTimeLeft::Left((self.limit.soft_ms - since(self.started)).div_ceil(1000)),
        }
    }

    /// Follows the orchestrator's news of the limit.
    pub fn reached(&mut self, stage: RoundTimeStage, at: Timestamp) {
        match stage {
            RoundTimeStage::WrapUp => {
                self.notified.get_or_insert(at);
            }
            RoundTimeStage::Blocked => self.blocked = true,
        }
    }
}

/// Peers' answers reached the agent mid-round, as its card says it.
pub(super) fn injected_notice(labels: &[AnswerLabel]) -> String {
    let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
    format!("📨 update received: {} (keeps working)", labels.join(", "))
}

/// The round's time limit reached `stage`, as the card says it.
pub(super) fn round_limit_notice(stage: RoundTimeStage) -> String {
    match stage {
        RoundTimeStage::WrapUp => "⏱ round time limit: told to wrap up",
        RoundTimeStage::Blocked => "⏱ round time limit passed: only vote and new_answer allowed",
    }
    .to_string()
}

/// The winner began checking its final answer.
pub(super) const CHECKING_NOTICE: &str = "🔍 checking the final answer before it goes to you";

/// How the winner's check of its final answer ended, as its card says it.
pub(super) fn checked_notice(outcome: &PostEvaluationOutcome) -> String {
    match outcome {
        PostEvaluationOutcome::Submitted => "✓ final answer confirmed".into(),
        PostEvaluationOutcome::RestartRequested { reason, .. } => {
            format!("↻ asks for another attempt: {reason}")
        }
        PostEvaluationOutcome::Failed { message } => {
            format!("the check failed ({message}); the answer stands")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + secs).unwrap()
    }

    fn clock() -> RoundClock {
        RoundClock::new(
            at(0),
            RoundTimeLimit {
                soft_ms: 60_000,
                grace_ms: 30_000,
            },
        )
    }

    #[test]
    fn the_grace_counts_from_the_notice_as_the_orchestrator_counts_it() {
        let mut clock = clock();
        assert_eq!(clock.left_at(at(15)), RoundTimeLeft::Left(45));
        // Past the soft limit, the notice waits for the agent's next tool result: the
        // whole grace is still ahead.
        assert_eq!(clock.left_at(at(80)), RoundTimeLeft::WrapUp(30));
        assert_eq!(clock.left_at(at(95)), RoundTimeLeft::WrapUp(30));
        clock.reached(RoundTimeStage::WrapUp, at(100));
        assert_eq!(clock.left_at(at(110)), RoundTimeLeft::WrapUp(20));
        assert_eq!(clock.left_at(at(129)), RoundTimeLeft::WrapUp(1));
        assert_eq!(clock.left_at(at(130)), RoundTimeLeft::Blocked);
        // A second notice does not move the grace.
        clock.reached(RoundTimeStage::WrapUp, at(120));
        assert_eq!(clock.left_at(at(110)), RoundTimeLeft::WrapUp(20));
    }

    #[test]
    fn a_refused_call_shows_tools_blocked_at_once() {
        let mut clock = clock();
        clock.reached(RoundTimeStage::WrapUp, at(61));
        clock.reached(RoundTimeStage::Blocked, at(70));
        assert_eq!(clock.left_at(at(70)), RoundTimeLeft::Blocked);
    }
}
