//! Two modals laid out as tables: the coordination table (one column per agent, one row
//! per coordination event, MassGen's symbols) and the tool-call detail of one agent.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::render::{display_width, seconds, truncate, wrap};
use crate::tui::state::{CardItem, EntryKind, ToolCard, ToolState, UiState};
use crate::tui::theme::Theme;

const EVENT_WIDTH: usize = 6;

/// The coordination table: `USER` row with the question, then `E1`, `E2`, … one per
/// coordination event in the column of the agent it concerns; totals at the end.
pub fn coordination(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let columns = state.agents.len().max(1);
    let cell = (width.saturating_sub(EVENT_WIDTH) / columns).max(8);
    let mut header = vec![Span::styled(
        format!("{:<EVENT_WIDTH$}", "Event"),
        theme.dim(),
    )];
    for (index, card) in state.agents.iter().enumerate() {
        header.push(Span::styled(
            pad(&card.info.id.to_string(), cell),
            theme.agent(index).add_modifier(Modifier::BOLD),
        ));
    }
    let mut lines = vec![
        Line::styled(
            "✨ new answer  🗳 vote  🔁 restart  ⊘ ignored vote  ✗ error  🏆 winner  🎯 final answer",
            theme.dim(),
        ),
        Line::from(header),
        Line::styled(
            truncate(
                &format!(
                    "{:<EVENT_WIDTH$}{}",
                    "USER",
                    state.question.replace('\n', " ")
                ),
                width,
            ),
            theme.text(),
        ),
    ];
    let mut number = 0;
    for entry in &state.timeline {
        let Some(agent) = &entry.agent else {
            continue;
        };
        let Some(column) = state.agent_index(agent) else {
            continue;
        };
        let Some(text) = cell_text(&entry.kind) else {
            continue;
        };
        number += 1;
        let mut spans = vec![Span::styled(
            format!("{:<EVENT_WIDTH$}", format!("E{number}")),
            theme.dim(),
        )];
        for index in 0..state.agents.len() {
            let content = if index == column {
                text.clone()
            } else {
                String::new()
            };
            spans.push(Span::styled(pad(&content, cell), theme.agent(index)));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::default());
    let mut totals = vec![Span::styled(
        format!("{:<EVENT_WIDTH$}", "Total"),
        theme.dim(),
    )];
    for (index, card) in state.agents.iter().enumerate() {
        let votes = state
            .timeline
            .iter()
            .filter(|entry| {
                entry.agent.as_ref() == Some(&card.info.id)
                    && matches!(entry.kind, EntryKind::Vote { .. })
            })
            .count();
        totals.push(Span::styled(
            pad(&format!("{} answers, {votes} votes", card.answers), cell),
            theme.agent(index),
        ));
    }
    lines.push(Line::from(totals));
    lines
}

fn cell_text(kind: &EntryKind) -> Option<String> {
    Some(match kind {
        EntryKind::Answer { label, .. } => format!("✨ {label}"),
        EntryKind::Vote { target_label, .. } => format!("🗳 {target_label}"),
        EntryKind::VoteIgnored { .. } => "⊘ ignored".to_string(),
        EntryKind::Restarted { round, .. } => format!("🔁 round {round}"),
        EntryKind::Error { .. } | EntryKind::Killed { .. } => "✗ error".to_string(),
        EntryKind::Winner { .. } => "🏆 winner".to_string(),
        EntryKind::Presenting { label } => format!("🎯 {label}"),
        EntryKind::Enforcement { attempt, .. } => format!("⟳ attempt {attempt}"),
        EntryKind::Retrying { .. } => "⟳ retry".to_string(),
        EntryKind::ToolRefused { .. } => "⛔ refused".to_string(),
        EntryKind::TurnStarted { .. }
        | EntryKind::FinalDone { .. }
        | EntryKind::Timeout { .. }
        | EntryKind::Cancelled
        | EntryKind::HumanInput { .. }
        | EntryKind::Warning { .. }
        | EntryKind::TurnFinished { .. } => return None,
    })
}

fn pad(text: &str, width: usize) -> String {
    let cut = truncate(text, width.saturating_sub(1));
    let used = display_width(&cut);
    format!("{cut}{}", " ".repeat(width.saturating_sub(used)))
}

/// The agent's tool calls.
pub fn tool_calls(state: &UiState, agent: usize) -> Vec<&ToolCard> {
    state.agents.get(agent).map_or_else(Vec::new, |card| {
        card.items.iter().filter_map(CardItem::tool).collect()
    })
}

/// One tool call in full: its name, arguments (pretty JSON when they are JSON) and result.
pub fn tool_detail(
    state: &UiState,
    theme: &Theme,
    width: usize,
    agent: usize,
    selected: usize,
) -> Vec<Line<'static>> {
    let calls = tool_calls(state, agent);
    if calls.is_empty() {
        return vec![Line::styled("No tool calls yet.", theme.dim())];
    }
    let selected = selected.min(calls.len() - 1);
    let tool = calls[selected];
    let mut lines = vec![Line::styled(
        format!(
            "← → call {} of {}: {}",
            selected + 1,
            calls.len(),
            tool.name
        ),
        theme.accent(),
    )];
    lines.push(Line::default());
    lines.push(Line::styled(
        "Arguments",
        theme.dim().add_modifier(Modifier::BOLD),
    ));
    let arguments = serde_json::from_str::<serde_json::Value>(&tool.arguments)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_else(|| tool.arguments.clone());
    lines.extend(
        wrap(&arguments, width)
            .into_iter()
            .map(|line| Line::styled(line, theme.text())),
    );
    lines.push(Line::default());
    match &tool.state {
        ToolState::Running => lines.push(Line::styled("◉ running…", theme.accent())),
        ToolState::Done {
            ok,
            output,
            duration_ms,
        } => {
            let (head, style) = if *ok {
                (
                    format!("Result ✓ in {} s", seconds(*duration_ms)),
                    theme.good(),
                )
            } else {
                (
                    format!("Error ✗ after {} s", seconds(*duration_ms)),
                    theme.bad(),
                )
            };
            lines.push(Line::styled(head, style));
            lines.extend(
                wrap(output, width)
                    .into_iter()
                    .map(|line| Line::styled(line, theme.text())),
            );
        }
    }
    lines
}
