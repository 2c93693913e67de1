//! `/cost`: tokens and cost of the running (or last) turn per agent, of the whole session
//! per agent and per turn (resumed turns included), and the session's total.

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::protocol::Usage;
use crate::tui::render::cost as money;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme) -> Vec<Line<'static>> {
    let heading = |text: String| Line::styled(text, theme.dim().add_modifier(Modifier::BOLD));
    let mut lines = vec![heading(usage_header("this turn"))];
    for (index, card) in state.agents.iter().enumerate() {
        lines.push(Line::styled(
            usage_row(
                card.info.id.as_str(),
                card.usage,
                &money(card.cost_usd, card.cost_unknown),
            ),
            theme.agent(index),
        ));
    }
    let (usage, cost, unknown) = state.turn_usage();
    lines.push(Line::styled(
        usage_row("total", usage, &money(cost, unknown)),
        theme.text().add_modifier(Modifier::BOLD),
    ));
    if !state.turns.is_empty() {
        lines.push(Line::default());
        lines.push(heading(usage_header("session")));
        for (id, usage, cost, unknown) in state.session_usage_by_agent() {
            let index = state.agent_index(&id).unwrap_or(0);
            lines.push(Line::styled(
                usage_row(id.as_str(), usage, &money(cost, unknown)),
                theme.agent(index),
            ));
        }
        lines.push(Line::default());
        lines.push(heading(usage_header("turn")));
        for turn in &state.turns {
            lines.push(Line::styled(
                usage_row(
                    &format!("turn {}", turn.turn),
                    turn.usage,
                    &money(turn.cost_usd, turn.cost_unknown),
                ),
                theme.text(),
            ));
        }
        let (session, cost, unknown) = state.session_usage();
        lines.push(Line::styled(
            usage_row("session total", session, &money(cost, unknown)),
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
pub fn usage_row(name: &str, usage: Usage, cost: &str) -> String {
    format!(
        "{name:<16}{:>10}{:>10}{:>11}{:>10}{cost:>12}",
        usage.input_tokens, usage.output_tokens, usage.reasoning_tokens, usage.cached_input_tokens
    )
}
