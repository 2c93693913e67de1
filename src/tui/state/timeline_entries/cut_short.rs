//! The timeline entries of setbacks and stops: round time limits, retries, errors, an
//! agent dropped from the turn, timeouts, the cost budget, warnings, refused calls and
//! MCP servers that fail.

use crate::protocol::{RoundTimeStage, TimeoutScope};
use crate::session::format_usd;
use crate::tui::state::timeline::EntryKind;

pub(super) fn round_time_limit(stage: RoundTimeStage) -> EntryKind {
    EntryKind::RoundTimeLimit { stage }
}

pub(super) fn enforcement(attempt: u32, max_attempts: u32, detail: &str) -> EntryKind {
    EntryKind::Enforcement {
        attempt,
        max_attempts,
        detail: detail.to_string(),
    }
}

pub(super) fn retrying(attempt: u32, max_retries: u32, delay_ms: u64, reason: &str) -> EntryKind {
    EntryKind::Retrying {
        reason: reason.to_string(),
        delay_ms,
        attempt,
        max_retries,
    }
}

pub(super) fn error(message: &str) -> EntryKind {
    EntryKind::Error {
        message: message.to_string(),
    }
}

pub(super) fn killed(reason: &str) -> EntryKind {
    EntryKind::Killed {
        reason: reason.to_string(),
    }
}

pub(super) fn timeout(scope: TimeoutScope, seconds: u64) -> EntryKind {
    EntryKind::Timeout { scope, seconds }
}

pub(super) fn budget_reached(budget_usd: f64, spent_usd: f64) -> EntryKind {
    warning(&format!(
        "💰 cost budget of {} reached ({} spent): the best answer so far is presented",
        format_usd(budget_usd),
        format_usd(spent_usd)
    ))
}

pub(super) fn warning(message: &str) -> EntryKind {
    EntryKind::Warning {
        message: message.to_string(),
    }
}

pub(super) fn refused(tool: &str, path: &str, reason: &str) -> EntryKind {
    EntryKind::ToolRefused {
        tool: tool.to_string(),
        path: path.to_string(),
        reason: reason.to_string(),
    }
}

pub(super) fn server_unavailable(server: &str, error: &str) -> EntryKind {
    warning(&format!("MCP server {server} is unavailable: {error}"))
}

pub(super) fn server_paused(server: &str, retry_in_secs: u64) -> EntryKind {
    warning(&format!(
        "MCP server {server} keeps failing; paused for {retry_in_secs} s"
    ))
}
