//! `/metrics` (key `M`): per agent, its model calls, tokens, mean time to first token,
//! model time, tool calls and tool time; then per tool, its calls, successes, failures,
//! mean and total time (MassGen's MetricsModal). Over the whole session.

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::tui::render::format::{plural, seconds, tokens};
use crate::tui::render::wrap::{truncate, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

/// Below this width each agent and tool takes a few lines instead of a table row.
const NARROW: usize = 66;

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
    if width < NARROW {
        return narrow(state, theme, width);
    }
    let mut lines = vec![heading(format!(
        "{:<12}{:>6}{:>8}{:>8}{:>8}{:>9}{:>6}{:>10}",
        "agent", "calls", "input", "output", "ttft", "model", "tools", "tool time"
    ))];
    for row in &metrics.agents {
        let ttft = row
            .mean_ttft_ms()
            .map_or_else(|| "-".to_string(), |ms| format!("{} s", seconds(ms)));
        let text = format!(
            "{:<12}{:>6}{:>8}{:>8}{:>8}{:>9}{:>6}{:>10}",
            truncate(row.id.as_str(), 11),
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
    lines.extend(
        wrap(
            "ttft: mean time to the first streamed token · model: time in model calls",
            width,
        )
        .into_iter()
        .map(|line| Line::styled(line, theme.dim())),
    );
    lines
}

/// The same figures, a few short lines per agent, then per tool under a heading.
fn narrow(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut push = |text: String, style| lines.push(Line::styled(truncate(&text, width), style));
    for row in &state.metrics.agents {
        let style = theme.agent(state.agent_index(&row.id).unwrap_or(0));
        let ttft = row
            .mean_ttft_ms()
            .map_or_else(|| "-".to_string(), |ms| format!("{} s", seconds(ms)));
        push(row.id.to_string(), style.add_modifier(Modifier::BOLD));
        push(
            format!(
                "  {} · {} in · {} out",
                plural(
                    usize::try_from(row.model_calls).unwrap_or(usize::MAX),
                    "call"
                ),
                tokens(row.input_tokens),
                tokens(row.output_tokens)
            ),
            style,
        );
        push(
            format!("  ttft {ttft} · model {} s", seconds(row.model_ms)),
            style,
        );
        push(
            format!(
                "  {} · {} s",
                plural(
                    usize::try_from(row.tool_calls).unwrap_or(usize::MAX),
                    "tool call"
                ),
                seconds(row.tool_ms)
            ),
            style,
        );
    }
    if !state.metrics.tools.is_empty() {
        push(String::new(), theme.text());
        push("per tool".into(), theme.dim().add_modifier(Modifier::BOLD));
    }
    for tool in &state.metrics.tools {
        let style = if tool.failures > 0 {
            theme.warn()
        } else {
            theme.text()
        };
        push(tool.name.clone(), style.add_modifier(Modifier::BOLD));
        push(
            format!(
                "  {} · {} ok · {} failed",
                plural(usize::try_from(tool.calls).unwrap_or(usize::MAX), "call"),
                tool.successes(),
                tool.failures
            ),
            style,
        );
        push(
            format!(
                "  mean {} s · total {} s",
                seconds(tool.mean_ms()),
                seconds(tool.total_ms)
            ),
            style,
        );
    }
    lines
}
