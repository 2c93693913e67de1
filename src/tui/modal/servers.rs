//! The MCP status view: every agent's servers, their state, tools, and how many of their
//! calls failed this turn.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::McpServerState;
use crate::tui::render::format::plural;
use crate::tui::render::wrap::wrap;
use crate::tui::state::{CardItem, ToolState, UiState};
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    if state.tools.servers.is_empty() {
        return vec![Line::styled(
            "No MCP servers: add `mcp_servers` to an agent's backend in the config.",
            theme.dim(),
        )];
    }
    let mut lines = Vec::new();
    for (index, card) in state.agents.iter().enumerate() {
        let rows: Vec<_> = state
            .tools
            .servers
            .iter()
            .filter(|row| row.agent == card.info.id)
            .collect();
        if rows.is_empty() {
            continue;
        }
        lines.push(Line::styled(
            card.info.id.to_string(),
            theme.agent(index).add_modifier(Modifier::BOLD),
        ));
        for row in rows {
            let (calls, failed) = call_counts(state, index, &row.server);
            let (mark, what, detail, style) = match &row.state {
                McpServerState::Starting => ("◌", "starting".to_string(), None, theme.dim()),
                McpServerState::Ready { tools } => {
                    let names: Vec<&str> = tools
                        .iter()
                        .map(|tool| tool.rsplit("__").next().unwrap_or(tool))
                        .collect();
                    let what = format!("ready · {}", plural(tools.len(), "tool"));
                    ("●", what, Some(names.join(", ")), theme.good())
                }
                McpServerState::Failed { error } => {
                    ("✗", "failed".to_string(), Some(error.clone()), theme.bad())
                }
                McpServerState::Paused { retry_in_secs } => (
                    "⏸",
                    format!("paused after failing calls, retried in {retry_in_secs} s"),
                    None,
                    theme.warn(),
                ),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("  {mark} {}  ", row.server), style),
                Span::styled(what, theme.text()),
                Span::styled(
                    format!(" · {}, {failed} failed this turn", plural(calls, "call")),
                    theme.dim(),
                ),
            ]));
            for line in detail
                .map(|detail| wrap(&detail, width.saturating_sub(6)))
                .unwrap_or_default()
            {
                lines.push(Line::styled(format!("      {line}"), theme.dim()));
            }
        }
        lines.push(Line::default());
    }
    lines
}

/// Calls to `server` in the agent's output this turn, and how many failed.
fn call_counts(state: &UiState, agent: usize, server: &str) -> (usize, usize) {
    let prefix = format!("{server}/");
    state.agents.get(agent).map_or((0, 0), |card| {
        card.items
            .iter()
            .filter_map(CardItem::tool)
            .filter(|tool| tool.name.starts_with(&prefix))
            .fold((0, 0), |(calls, failed), tool| {
                let bad = matches!(tool.state, ToolState::Done { ok: false, .. });
                (calls + 1, failed + usize::from(bad))
            })
    })
}
