//! A round's time limit (`timeout_settings.*_round_timeout_seconds`): when the wrap-up
//! notice is due, when tools are refused, and when an agent that keeps calling refused
//! tools is ended. Runs on tokio's clock, so tests can pause it.

use std::time::Duration;

use tokio::time::Instant;

use crate::protocol::RoundTimeLimit;

/// Refused tool calls in a row after which the agent's round is ended (MassGen: 10).
pub const MAX_CONSECUTIVE_DENIALS: u32 = 10;

/// The soft limit and the grace after the notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundLimit {
    pub soft: Duration,
    pub grace: Duration,
}

impl RoundLimit {
    pub fn as_event(self) -> RoundTimeLimit {
        let millis = |duration: Duration| u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        RoundTimeLimit {
            soft_ms: millis(self.soft),
            grace_ms: millis(self.grace),
        }
    }
}

/// One round's clock.
#[derive(Clone, Debug)]
pub struct RoundClock {
    started: Instant,
    limit: Option<RoundLimit>,
    /// When the wrap-up notice reached the agent; the grace counts from then.
    notified: Option<Instant>,
    denials: u32,
}

/// What to do about tool calls at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolTime {
    Free,
    /// Run them, and append the wrap-up notice (once) to their results.
    WrapUp,
    /// Refuse every tool but `vote` and `new_answer`.
    Blocked,
}

impl RoundClock {
    pub fn start(limit: Option<RoundLimit>) -> Self {
        Self {
            started: Instant::now(),
            limit,
            notified: None,
            denials: 0,
        }
    }

    pub fn limit(&self) -> Option<RoundLimit> {
        self.limit
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Where the round stands for the tool calls about to run.
    pub fn tool_time(&self) -> ToolTime {
        let Some(limit) = self.limit else {
            return ToolTime::Free;
        };
        match self.notified {
            Some(at) if at.elapsed() >= limit.grace => ToolTime::Blocked,
            Some(_) => ToolTime::Free,
            None if self.elapsed() >= limit.soft => ToolTime::WrapUp,
            None => ToolTime::Free,
        }
    }

    pub fn mark_notified(&mut self) {
        self.notified.get_or_insert_with(Instant::now);
    }

    /// Time since the wrap-up notice.
    pub fn since_notice(&self) -> Duration {
        self.notified.map_or(Duration::ZERO, |at| at.elapsed())
    }

    /// Counts one refused call; true once `MAX_CONSECUTIVE_DENIALS` are reached.
    pub fn deny(&mut self) -> bool {
        self.denials += 1;
        self.denials >= MAX_CONSECUTIVE_DENIALS
    }

    pub fn denials(&self) -> u32 {
        self.denials
    }

    /// Peers' answers may be injected mid-round only while at least a grace period is left
    /// before the soft limit; closer to it the agent restarts with a full round instead.
    pub fn allows_injection(&self) -> bool {
        self.limit.is_none_or(|limit| {
            limit
                .soft
                .checked_sub(self.elapsed())
                .is_some_and(|left| left >= limit.grace)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(soft: u64, grace: u64) -> Option<RoundLimit> {
        Some(RoundLimit {
            soft: Duration::from_secs(soft),
            grace: Duration::from_secs(grace),
        })
    }

    #[tokio::test(start_paused = true)]
    async fn the_notice_comes_at_the_soft_limit_and_the_block_a_grace_after_it() {
        let mut clock = RoundClock::start(limit(60, 30));
        assert_eq!(clock.tool_time(), ToolTime::Free);
        assert!(clock.allows_injection());
        tokio::time::advance(Duration::from_secs(31)).await;
        assert!(
            !clock.allows_injection(),
            "29 s left is less than the grace"
        );
        tokio::time::advance(Duration::from_secs(29)).await;
        assert_eq!(clock.tool_time(), ToolTime::WrapUp);
        clock.mark_notified();
        tokio::time::advance(Duration::from_secs(29)).await;
        assert_eq!(clock.tool_time(), ToolTime::Free, "still within the grace");
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(clock.tool_time(), ToolTime::Blocked);
        for _ in 1..MAX_CONSECUTIVE_DENIALS {
            assert!(!clock.deny());
        }
        assert!(clock.deny(), "the tenth refusal ends the round");
    }

    #[tokio::test(start_paused = true)]
    async fn a_round_without_a_limit_is_never_blocked() {
        let clock = RoundClock::start(None);
        tokio::time::advance(Duration::from_secs(100_000)).await;
        assert_eq!(clock.tool_time(), ToolTime::Free);
        assert!(clock.allows_injection());
    }
}
