//! When to try a failed model call again: bounded attempts, jittered exponential backoff,
//! and the provider's `Retry-After` hint honoured when it is reasonable.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use crate::backend::BackendError;

/// The retry settings of one backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (`max_retries` in the config; default 3).
    pub max_retries: u32,
    /// The first backoff; each further retry doubles it.
    pub base_delay: Duration,
    /// The longest backoff we choose ourselves.
    pub max_delay: Duration,
    /// The longest `Retry-After` we are willing to wait; a longer hint ends the call.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 3,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (1-based) after `error`, or `None` when the
    /// call should fail now.
    pub fn delay_before(&self, retry: u32, error: &BackendError) -> Option<Duration> {
        if !error.is_retryable() || retry > self.max_retries {
            return None;
        }
        if let Some(hint) = error.retry_after() {
            return (hint <= self.max_retry_after).then_some(hint);
        }
        let exponent = retry.saturating_sub(1).min(16);
        let backoff = self
            .base_delay
            .saturating_mul(1 << exponent)
            .min(self.max_delay);
        Some(jitter(backoff))
    }
}

/// `delay` scaled by a random factor in [0.75, 1.25), so agents hitting one rate limit
/// together do not retry together.
fn jitter(delay: Duration) -> Duration {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(delay.as_nanos() as u64);
    let unit = (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64;
    delay.mul_f64(0.75 + unit * 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_error() -> BackendError {
        BackendError::Server {
            provider: "x".into(),
            status: 503,
            retry_after: None,
            detail: String::new(),
        }
    }

    #[test]
    fn backoff_doubles_with_jitter_and_stops_after_the_limit() {
        let policy = RetryPolicy::default();
        for (retry, nominal) in [(1, 1.0), (2, 2.0), (3, 4.0)] {
            let delay = policy.delay_before(retry, &server_error()).unwrap();
            let seconds = delay.as_secs_f64();
            assert!(
                (nominal * 0.75..nominal * 1.25).contains(&seconds),
                "retry {retry}: {seconds}"
            );
        }
        assert_eq!(policy.delay_before(4, &server_error()), None);
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let policy = RetryPolicy::default();
        let limited = |seconds| BackendError::RateLimited {
            provider: "x".into(),
            retry_after: Some(Duration::from_secs(seconds)),
            detail: String::new(),
        };
        assert_eq!(
            policy.delay_before(1, &limited(4)),
            Some(Duration::from_secs(4))
        );
        assert_eq!(policy.delay_before(1, &limited(3600)), None);
    }

    #[test]
    fn errors_that_retrying_cannot_fix_fail_at_once() {
        let auth = BackendError::Auth {
            provider: "x".into(),
            fix: "set X".into(),
            detail: String::new(),
        };
        assert_eq!(RetryPolicy::default().delay_before(1, &auth), None);
    }

    #[test]
    fn backoff_is_capped() {
        let policy = RetryPolicy {
            max_retries: 40,
            ..RetryPolicy::default()
        };
        let delay = policy.delay_before(30, &server_error()).unwrap();
        assert!(delay <= Duration::from_secs(75));
    }
}
