//! `/cost`: tokens and cost of the running (or last) turn per agent, of the whole session
//! per agent and per turn (resumed turns included), and the session's total.

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::protocol::Spend;
use crate::tui::render::format::cost;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme) -> Vec<Line<'static>> {
    let heading = |text: String| Line::styled(text, theme.dim().add_modifier(Modifier::BOLD));
    let mut lines = vec![heading(usage_header("this turn"))];
    for (index, card) in state.agents.iter().enumerate() {
        lines.push(Line::styled(
            usage_row(card.info.id.as_str(), &card.spend),
            theme.agent(index),
        ));
    }
    lines.push(Line::styled(
        usage_row("total", &state.turn_usage()),
        theme.text().add_modifier(Modifier::BOLD),
    ));
    if !state.turns.is_empty() {
        lines.push(Line::default());
        lines.push(heading(usage_header("session")));
        for (id, spend) in state.session_usage_by_agent() {
            let index = state.agent_index(&id).unwrap_or(0);
            lines.push(Line::styled(
                usage_row(id.as_str(), &spend),
                theme.agent(index),
            ));
        }
        lines.push(Line::default());
        lines.push(heading(usage_header("turn")));
        for turn in &state.turns {
            lines.push(Line::styled(
                usage_row(&format!("turn {}", turn.turn), &turn.spend),
                theme.text(),
            ));
        }
        lines.push(Line::styled(
            usage_row("session total", &state.session_usage()),
            theme.text().add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        "Prices: offline table from LiteLLM (assets/pricing.json); ? = a model without a price.",
        theme.dim(),
    ));
    lines
}

/// The costs table's column heads, the first one named `first`.
pub fn usage_header(first: &str) -> String {
    format!(
        "{first:<16}{:>10}{:>10}{:>11}{:>10}{:>12}",
        "input", "output", "reasoning", "cached", "cost"
    )
}

/// One row of the costs table: tokens by kind, then the cost.
pub fn usage_row(name: &str, spend: &Spend) -> String {
    let usage = &spend.usage;
    format!(
        "{name:<16}{:>10}{:>10}{:>11}{:>10}{:>12}",
        usage.input_tokens,
        usage.output_tokens,
        usage.reasoning_tokens,
        usage.cached_input_tokens,
        cost(spend)
    )
}
