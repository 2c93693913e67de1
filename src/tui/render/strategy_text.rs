//! How a council turn's news reads in one line: its timeline entries (ballots, missing
//! rankings, the final Borda totals, the chairman), and the words the rankings view shares.

use ratatui::style::Style;

use crate::protocol::{AgentId, ChairmanBasis, RankingSource};
use crate::tui::state::StrategyEntry;
use crate::tui::theme::Theme;

/// A ranking: a ballot, or the totals over them.
pub const RANKING: &str = "⚖";
/// The member who synthesizes the final answer.
pub const CHAIRMAN: &str = "♛";

/// The entry's line and style in the timeline.
pub fn describe(entry: &StrategyEntry, theme: &Theme) -> (String, Style) {
    match entry {
        StrategyEntry::Ballot { order, source } => (
            format!(
                "{RANKING} ranked {} ({})",
                order_text(order),
                source_word(*source)
            ),
            theme.text(),
        ),
        StrategyEntry::RankingMissing { reason } => {
            (format!("✗ no ranking: {reason}"), theme.warn())
        }
        StrategyEntry::Aggregate { totals } => {
            let totals = totals
                .iter()
                .map(|(agent, points)| format!("{agent} {points}"))
                .collect::<Vec<_>>()
                .join(", ");
            (format!("{RANKING} Borda totals [{totals}]"), theme.accent())
        }
        StrategyEntry::ChairmanChosen { chairman, basis } => (
            format!("{CHAIRMAN} chairman {chairman}: {}", basis_text(basis)),
            theme.winner(),
        ),
    }
}

/// `b > c > a`.
pub fn order_text(order: &[AgentId]) -> String {
    if order.is_empty() {
        return "nothing".into();
    }
    order
        .iter()
        .map(AgentId::as_str)
        .collect::<Vec<_>>()
        .join(" > ")
}

/// Whether the ranking came through the `rank` tool or the reply's text.
pub fn source_word(source: RankingSource) -> &'static str {
    match source {
        RankingSource::Tool => "tool",
        RankingSource::Text => "text",
    }
}

/// Why this chairman synthesizes.
pub fn basis_text(basis: &ChairmanBasis) -> String {
    match basis {
        ChairmanBasis::Configured => "configured".into(),
        ChairmanBasis::TopRanked => "ranked first".into(),
        ChairmanBasis::FirstMember => "first member".into(),
        ChairmanBasis::Fallback { failed, reason } => {
            format!("took over from {failed} ({reason})")
        }
    }
}
