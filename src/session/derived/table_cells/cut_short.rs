//! The cells of setbacks and stops: retries, refused calls, time limits, errors, an agent
//! dropped from the turn, the cost budget, the user's answer now and cancellation.

use crate::protocol::symbols::{ERROR, REFUSED, RETRY, TIMER};
use crate::protocol::{AgentId, RoundTimeStage, TimeoutScope};
use crate::session::format_usd;

pub(super) fn enforcement_retry(attempt: u32, max_attempts: u32, detail: &str) -> Vec<String> {
    vec![
        format!("{RETRY} RETRY {attempt}/{max_attempts}"),
        detail.to_string(),
    ]
}

pub(super) fn model_call_retry(attempt: u32, max_retries: u32, reason: &str) -> Vec<String> {
    vec![
        format!("{RETRY} MODEL CALL RETRY {attempt}/{max_retries}"),
        reason.to_string(),
    ]
}

pub(super) fn refused(tool: &str, reason: &str) -> Vec<String> {
    vec![format!("{REFUSED} REFUSED {tool}"), reason.to_string()]
}

pub(super) fn round_time_limit(stage: RoundTimeStage, elapsed_secs: u64) -> Vec<String> {
    vec![
        match stage {
            RoundTimeStage::WrapUp => format!("{TIMER} ROUND TIME LIMIT: wrap up"),
            RoundTimeStage::Blocked => format!("{TIMER} ROUND TIME LIMIT: tools blocked"),
        },
        format!("after {elapsed_secs} s"),
    ]
}

pub(super) fn error(message: &str) -> Vec<String> {
    vec![format!("{ERROR} ERROR"), message.to_string()]
}

pub(super) fn dropped(reason: &str) -> Vec<String> {
    vec![format!("{ERROR} DROPPED"), reason.to_string()]
}

pub(super) fn timeout(scope: TimeoutScope, seconds: u64) -> Vec<String> {
    let clock = match scope {
        TimeoutScope::Orchestrator => "coordination",
        TimeoutScope::Presentation => "final presentation",
    };
    vec![format!("{ERROR} TIMEOUT: {clock} after {seconds} s")]
}

pub(super) fn budget(budget_usd: f64, spent_usd: f64) -> Vec<String> {
    vec![format!(
        "{ERROR} BUDGET: {} reached ({} spent)",
        format_usd(budget_usd),
        format_usd(spent_usd)
    )]
}

pub(super) fn answer_now(stopped: &[AgentId]) -> Vec<String> {
    let mut cells = vec![format!("{TIMER} ANSWER NOW by the user")];
    if !stopped.is_empty() {
        let stopped: Vec<String> = stopped.iter().map(ToString::to_string).collect();
        cells.push(format!("stopped: {}", stopped.join(", ")));
    }
    cells
}

pub(super) fn cancelled() -> Vec<String> {
    vec![format!("{ERROR} CANCELLED by the user")]
}
