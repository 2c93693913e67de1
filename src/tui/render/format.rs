//! Short forms for figures: token counts, durations, costs, counted nouns, status icons.

pub use crate::text::plural;

use crate::protocol::{AgentStatus, Spend, Usage};
use crate::session;

/// `950`, `12.3k`, `1.2M`.
pub fn tokens(count: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let value = count as f64;
    if count < 1_000 {
        count.to_string()
    } else if count < 1_000_000 {
        format!("{:.1}k", value / 1e3)
    } else {
        format!("{:.1}M", value / 1e6)
    }
}

/// The total of `usage` as [`tokens`] shows it, after `~` when a tokenizer counted some
/// of it because the provider reported none.
pub fn total_tokens(usage: &Usage) -> String {
    let approx = if usage.estimated { "~" } else { "" };
    format!("{approx}{}", tokens(usage.total()))
}

/// `512 B`, `3.4 KB`, `12.0 MB`, `1.2 GB`.
pub fn bytes(count: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let value = count as f64;
    if count < 1_000 {
        format!("{count} B")
    } else if count < 1_000_000 {
        format!("{:.1} KB", value / 1e3)
    } else if count < 1_000_000_000 {
        format!("{:.1} MB", value / 1e6)
    } else {
        format!("{:.1} GB", value / 1e9)
    }
}

/// `0:07`, `12:30`, `1:02:03`.
pub fn duration(secs: u64) -> String {
    let (hours, minutes, seconds) = (secs / 3600, secs / 60 % 60, secs % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// Milliseconds as seconds to a tenth: `0.3`, `12.0`.
pub fn seconds(ms: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let value = ms as f64 / 1000.0;
    format!("{value:.1}")
}

/// `⟳ rate limited, retrying in 4.0 s (1/3)`.
pub fn retrying(reason: &str, delay_ms: u64, attempt: u32, max_retries: u32) -> String {
    format!(
        "⟳ {reason}, retrying in {} s ({attempt}/{max_retries})",
        seconds(delay_ms)
    )
}

/// `$0.0123`, followed by `+?` when some price is unknown (the figure is then a lower bound).
pub fn cost(spend: &Spend) -> String {
    let usd = session::format_usd(spend.cost_usd);
    if spend.cost_unknown {
        format!("{usd}+?")
    } else {
        usd
    }
}

/// A plan id cut to `keep` characters and `…` (`plan_20261124_1740…`); whole if short.
pub fn short_plan_id(id: &str, keep: usize) -> String {
    if id.chars().count() <= keep + 1 {
        id.to_string()
    } else {
        let cut: String = id.chars().take(keep).collect();
        format!("{cut}…")
    }
}

/// Frames of the spinner shown while an agent works.
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The agent's icon; working agents spin (`spinner` counts frames).
pub fn status_icon(status: AgentStatus, winner: bool, spinner: usize) -> &'static str {
    if winner {
        return "🏆";
    }
    match status {
        AgentStatus::Waiting => "○",
        AgentStatus::Thinking
        | AgentStatus::Streaming
        | AgentStatus::Tool
        | AgentStatus::Restarting
        | AgentStatus::Presenting => SPINNER[spinner % SPINNER.len()],
        AgentStatus::Answered | AgentStatus::Voted | AgentStatus::Done => "✓",
        AgentStatus::Error | AgentStatus::TimedOut | AgentStatus::Cancelled => "✗",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_short() {
        assert_eq!(tokens(950), "950");
        assert_eq!(tokens(12_345), "12.3k");
        assert_eq!(tokens(1_250_000), "1.2M");
        let mut usage = Usage {
            input_tokens: 1_000,
            output_tokens: 234,
            ..Usage::default()
        };
        assert_eq!(total_tokens(&usage), "1.2k");
        usage.estimated = true;
        assert_eq!(total_tokens(&usage), "~1.2k");
        assert_eq!(duration(7), "0:07");
        assert_eq!(duration(750), "12:30");
        assert_eq!(duration(3723), "1:02:03");
    }
}
