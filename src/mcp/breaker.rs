//! The circuit breaker that pauses a failing MCP server (MassGen's
//! `mcp_tools/circuit_breaker.py`): pure logic, the caller passes the time.

use std::time::{Duration, Instant};

/// Failures in a row that pause a server.
pub const MAX_FAILURES: u32 = 3;
/// The first pause.
pub const RESET_TIME: Duration = Duration::from_secs(30);
const BACKOFF_MULTIPLIER: u32 = 2;
const MAX_BACKOFF_MULTIPLIER: u32 = 4;
const MAX_BACKOFF: Duration = Duration::from_secs(120);

/// How long a server with `failures` failures in a row is paused:
/// `30 s × min(2^(failures−3), 4)`, at most 120 s; nothing below three failures.
pub fn backoff(failures: u32) -> Duration {
    if failures < MAX_FAILURES {
        return Duration::ZERO;
    }
    let multiplier = BACKOFF_MULTIPLIER
        .checked_pow(failures - MAX_FAILURES)
        .map_or(MAX_BACKOFF_MULTIPLIER, |m| m.min(MAX_BACKOFF_MULTIPLIER));
    (RESET_TIME * multiplier).min(MAX_BACKOFF)
}

/// Whether a call may go to the server now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Allowed,
    Paused { failures: u32, retry_in: Duration },
}

/// One server's failure record.
#[derive(Clone, Debug, Default)]
pub struct Breaker {
    failures: u32,
    last_failure: Option<Instant>,
}

impl Breaker {
    /// Refuses while paused; once the pause is over the count starts again from zero.
    pub fn admit(&mut self, now: Instant) -> Admission {
        match self.paused_until() {
            Some(until) if now < until => Admission::Paused {
                failures: self.failures,
                retry_in: until - now,
            },
            Some(_) => {
                *self = Self::default();
                Admission::Allowed
            }
            None => Admission::Allowed,
        }
    }

    pub fn record_success(&mut self) {
        *self = Self::default();
    }

    /// Counts a failure; returns the pause when the server is now paused.
    pub fn record_failure(&mut self, now: Instant) -> Option<Duration> {
        self.failures = self.failures.saturating_add(1);
        self.last_failure = Some(now);
        self.paused_until().map(|until| until - now)
    }

    pub fn failures(&self) -> u32 {
        self.failures
    }

    fn paused_until(&self) -> Option<Instant> {
        match self.last_failure {
            Some(at) if self.failures >= MAX_FAILURES => Some(at + backoff(self.failures)),
            Some(_) | None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn backoff_doubles_from_30_s_and_stops_at_120_s() {
        assert_eq!(backoff(0), Duration::ZERO);
        assert_eq!(backoff(2), Duration::ZERO);
        assert_eq!(backoff(3), S(30));
        assert_eq!(backoff(4), S(60));
        assert_eq!(backoff(5), S(120));
        assert_eq!(backoff(6), S(120));
        assert_eq!(backoff(u32::MAX), S(120));
    }

    #[test]
    fn the_third_failure_in_a_row_pauses_for_30_s() {
        let start = Instant::now();
        let mut breaker = Breaker::default();
        assert_eq!(breaker.record_failure(start), None);
        assert_eq!(breaker.record_failure(start + S(1)), None);
        assert_eq!(breaker.admit(start + S(1)), Admission::Allowed);
        assert_eq!(breaker.record_failure(start + S(2)), Some(S(30)));
        assert_eq!(
            breaker.admit(start + S(12)),
            Admission::Paused {
                failures: 3,
                retry_in: S(20)
            }
        );
    }

    #[test]
    fn failures_while_paused_lengthen_the_pause() {
        let start = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..3 {
            breaker.record_failure(start);
        }
        assert_eq!(breaker.record_failure(start + S(5)), Some(S(60)));
        assert_eq!(breaker.record_failure(start + S(5)), Some(S(120)));
        assert_eq!(breaker.record_failure(start + S(5)), Some(S(120)));
    }

    #[test]
    fn after_the_pause_the_count_starts_again() {
        let start = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..3 {
            breaker.record_failure(start);
        }
        assert_eq!(breaker.admit(start + S(31)), Admission::Allowed);
        assert_eq!(breaker.failures(), 0);
        assert_eq!(breaker.record_failure(start + S(32)), None);
    }

    #[test]
    fn a_success_clears_the_count() {
        let start = Instant::now();
        let mut breaker = Breaker::default();
        breaker.record_failure(start);
        breaker.record_failure(start);
        breaker.record_success();
        assert_eq!(breaker.record_failure(start), None);
        assert_eq!(breaker.failures(), 1);
    }
}
