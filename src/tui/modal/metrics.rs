//! `/metrics` (key `M`): per agent, its model calls, tokens, mean time to first token,
//! model time, tool calls and tool time; then per tool, its calls, successes, failures,
//! mean and total time (MassGen's MetricsModal). Over the whole session.

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::tui::render::{seconds, tokens, truncate};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let heading = |text: String| {
        Line::styled(
            truncate(&text, width),
            theme.dim().add_modifier(Modifier::BOLD),
        )
    };
    let metrics = &state.metrics;
    if metrics.agents.is_empty() {
        return vec![Line::styled(
            "No model or tool calls yet in this session.",
            theme.dim(),
        )];
    }
    let mut lines = vec![heading(format!(
        "{:<14}{:>6}{:>9}{:>9}{:>8}{:>10}{:>7}{:>10}",
        "agent", "calls", "input", "output", "ttft", "model", "tools", "tool time"
    ))];
    for row in &metrics.agents {
        let ttft = row
            .mean_ttft_ms()
            .map_or_else(|| "-".to_string(), |ms| format!("{} s", seconds(ms)));
        let text = format!(
            "{:<14}{:>6}{:>9}{:>9}{:>8}{:>10}{:>7}{:>10}",
            truncate(row.id.as_str(), 13),
            row.model_calls,
            tokens(row.input_tokens),
            tokens(row.output_tokens),
            ttft,
            format!("{} s", seconds(row.model_ms)),
            row.tool_calls,
            format!("{} s", seconds(row.tool_ms)),
        );
        let index = state.agent_index(&row.id).unwrap_or(0);
        lines.push(Line::styled(truncate(&text, width), theme.agent(index)));
    }
    lines.push(Line::default());
    if metrics.tools.is_empty() {
        lines.push(Line::styled("No tool calls yet.", theme.dim()));
    } else {
        lines.push(heading(format!(
            "{:<24}{:>6}{:>5}{:>8}{:>9}{:>10}",
            "tool", "calls", "ok", "failed", "mean", "total"
        )));
        for tool in &metrics.tools {
            let text = format!(
                "{:<24}{:>6}{:>5}{:>8}{:>9}{:>10}",
                truncate(&tool.name, 23),
                tool.calls,
                tool.successes(),
                tool.failures,
                format!("{} s", seconds(tool.mean_ms())),
                format!("{} s", seconds(tool.total_ms)),
            );
            let style = if tool.failures > 0 {
                theme.warn()
            } else {
                theme.text()
            };
            lines.push(Line::styled(truncate(&text, width), style));
        }
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        truncate(
            "ttft: mean time to the first streamed token · model: time in model calls",
            width,
        ),
        theme.dim(),
    ));
    lines
}
