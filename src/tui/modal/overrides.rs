//! The answers browser in override mode (Ctrl+O once voting is done): every answer of the
//! turn, the winner's marked; Enter makes the highlighted one the turn's final answer.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::AnswerLabel;
use crate::tui::render::wrap::wrap;
use crate::tui::state::{CardItem, UiState};
use crate::tui::theme::Theme;

/// The answers an override can pick (not final presentations): author index, label, text.
pub fn choices(state: &UiState) -> Vec<(usize, &AnswerLabel, &str)> {
    let mut found = Vec::new();
    for (index, card) in state.agents.iter().enumerate() {
        for item in &card.items {
            if let CardItem::Answer { label, content } = item {
                found.push((index, label, content.as_str()));
            }
        }
    }
    found
}

/// The choice the override view opens on: the winner's latest answer, else the newest.
pub fn first_choice(state: &UiState) -> usize {
    let all = choices(state);
    let winner = state.agents.iter().position(|card| card.is_winner);
    winner
        .and_then(|winner| all.iter().rposition(|(index, _, _)| *index == winner))
        .unwrap_or_else(|| all.len().saturating_sub(1))
}

/// The label of choice `selected`, if there is one.
pub fn chosen(state: &UiState, selected: usize) -> Option<AnswerLabel> {
    choices(state)
        .get(selected)
        .map(|(_, label, _)| (*label).clone())
}

pub fn lines(state: &UiState, theme: &Theme, width: usize, selected: usize) -> Vec<Line<'static>> {
    let all = choices(state);
    if all.is_empty() {
        return vec![Line::styled("No answers to choose from.", theme.dim())];
    }
    let selected = selected.min(all.len() - 1);
    let winning = state
        .agents
        .iter()
        .position(|card| card.is_winner)
        .and_then(|winner| all.iter().rposition(|(index, _, _)| *index == winner));
    let mut tabs = vec![Span::styled("← → ", theme.dim())];
    for (position, (index, label, _)) in all.iter().enumerate() {
        let mark = if winning == Some(position) {
            " 🏆"
        } else {
            ""
        };
        let style = if position == selected {
            theme.agent(*index).add_modifier(Modifier::REVERSED)
        } else {
            theme.agent(*index)
        };
        tabs.push(Span::styled(format!(" {label}{mark} "), style));
    }
    let mut lines: Vec<Line<'static>> = wrap(
        "👤 Override: Enter makes the highlighted answer the final answer.",
        width,
    )
    .into_iter()
    .map(|line| Line::styled(line, theme.winner()))
    .collect();
    lines.push(Line::from(tabs));
    lines.push(Line::default());
    let (index, label, content) = &all[selected];
    let author = super::chrome::agent_name(state, *index);
    lines.push(Line::styled(
        format!("{label} by {author}"),
        theme.agent(*index).add_modifier(Modifier::BOLD),
    ));
    for line in wrap(content, width) {
        lines.push(Line::styled(line, theme.text()));
    }
    lines
}
