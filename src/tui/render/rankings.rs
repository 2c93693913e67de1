//! The rankings view of a council turn, in the tally pane and the votes view: the Borda
//! total per member from the latest aggregate (live: each replaces the last), each
//! ranker's order and whether the tool or the reply's text gave it, the members whose
//! ranking is missing and why, and the chairman and its basis.

use ratatui::text::{Line, Span};

use super::strategy_text::{CHAIRMAN, basis_text, order_text, source_word};
use super::wrap::truncate;
use crate::protocol::AgentId;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

/// Whether the running (or last) turn is a council turn: its rankings replace the tallies.
pub fn shown(state: &UiState) -> bool {
    state.strategy.is_council(state.turn.options.strategy)
}

/// The pane's title: whether the totals are final.
pub fn title(state: &UiState) -> &'static str {
    match &state.strategy.aggregate {
        Some(aggregate) if aggregate.complete => " Rankings · final ",
        Some(_) => " Rankings · live ",
        None => " Rankings ",
    }
}

/// The view's lines at `width` columns.
pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let strategy = &state.strategy;
    let names = state
        .agents
        .iter()
        .map(|card| card.info.id.as_str().chars().count())
        .max()
        .unwrap_or(0)
        .clamp(1, 14);
    let name = |agent: &AgentId| {
        let index = state.agent_index(agent).unwrap_or(0);
        Span::styled(
            format!("{:<names$} ", truncate(agent.as_str(), names)),
            theme.agent(index),
        )
    };
    let mut lines = Vec::new();
    match &strategy.aggregate {
        None if strategy.ballots.is_empty() && strategy.missing.is_empty() => {
            lines.push(Line::styled("no rankings yet", theme.dim()));
        }
        None => lines.push(Line::styled("Borda totals: none yet", theme.dim())),
        Some(aggregate) => {
            let most = aggregate
                .standings
                .iter()
                .map(|standing| standing.points)
                .max()
                .unwrap_or(0)
                .max(1);
            let room = width.saturating_sub(names + 6);
            for (place, standing) in aggregate.standings.iter().enumerate() {
                let index = state.agent_index(&standing.agent).unwrap_or(0);
                let filled = (room * standing.points as usize) / most as usize;
                lines.push(Line::from(vec![
                    name(&standing.agent),
                    Span::styled("█".repeat(filled), theme.agent(index)),
                    Span::styled(format!(" {}", standing.points), theme.text()),
                    Span::styled(
                        if place == 0 && aggregate.complete {
                            " 👑"
                        } else {
                            ""
                        },
                        theme.winner(),
                    ),
                ]));
            }
            for (agent, reason) in &aggregate.missing {
                if !strategy.missing.iter().any(|(ranker, _)| ranker == agent) {
                    lines.push(Line::from(vec![
                        name(agent),
                        Span::styled(truncate(&format!("✗ {reason}"), width), theme.warn()),
                    ]));
                }
            }
        }
    }
    if !strategy.ballots.is_empty() || !strategy.missing.is_empty() {
        lines.push(Line::styled("Ballots, best first", theme.dim()));
    }
    let room = width.saturating_sub(names + 1);
    for card in &state.agents {
        let ranker = &card.info.id;
        let ballot = strategy
            .ballots
            .iter()
            .find(|ballot| &ballot.ranker == ranker);
        let missing = strategy.missing.iter().find(|(id, _)| id == ranker);
        let text = match (ballot, missing) {
            (Some(ballot), _) => Span::styled(
                truncate(
                    &format!(
                        "{} · {}",
                        order_text(&ballot.order),
                        source_word(ballot.source)
                    ),
                    room,
                ),
                theme.text(),
            ),
            (None, Some((_, reason))) => {
                Span::styled(truncate(&format!("✗ {reason}"), room), theme.warn())
            }
            (None, None) => continue,
        };
        lines.push(Line::from(vec![name(ranker), text]));
    }
    if let Some((chairman, basis)) = &strategy.chairman {
        lines.push(Line::styled(
            truncate(
                &format!("{CHAIRMAN} chairman {chairman}: {}", basis_text(basis)),
                width,
            ),
            theme.winner(),
        ));
    }
    lines
}
