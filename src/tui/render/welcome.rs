//! The view before the first question (and after `/clear`): what massgen is and which
//! agents are ready.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::format::plural;
use crate::text::{display_width, pad_to};
use crate::tui::focus;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::View;

pub fn render(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let mut lines = vec![
        Line::default(),
        Line::styled("◈ massgen", theme.accent()),
        Line::styled(
            "Several agents answer at once, read each other, vote; the winner presents.",
            theme.dim(),
        ),
        Line::default(),
    ];
    agent_rows(state, theme, &mut lines);
    lines.push(Line::default());
    warnings(&state.startup_warnings, theme, &mut lines);
    let offline = !state.agents.is_empty()
        && state
            .agents
            .iter()
            .all(|card| card.info.backend == "scripted");
    if offline {
        lines.push(Line::styled(
            "Offline demo: these agents are scripted stand-ins; no model is called and \
             nothing is spent.",
            theme.warn(),
        ));
        lines.push(Line::styled(
            "Real models: massgen --config your.yaml (massgen --list-examples), \
             massgen --model gpt-5 (with its API key set), or massgen --local for servers here.",
            theme.dim(),
        ));
        lines.push(Line::default());
    }
    let turns = state.turns.len();
    if let (Some(session), false) = (&state.resumed, state.turn.cleared) {
        let remembered = match session.history_from {
            Some(from) => {
                let kept = state.turns.iter().filter(|turn| turn.turn >= from).count();
                format!(
                    "{} in the history, cleared before turn {from} (/inspect lists all {turns}).",
                    plural(kept, "earlier turn")
                )
            }
            None => format!(
                "{} in the history (/inspect lists them).",
                plural(turns, "earlier turn")
            ),
        };
        lines.push(Line::styled(
            format!("Continuing {}: {remembered}", session.id),
            theme.accent(),
        ));
        if let Some(notice) = &session.notice {
            lines.push(Line::styled(format!("⚠ {notice}"), theme.warn()));
        }
    } else if state.turn.cleared {
        lines.push(Line::styled(
            format!(
                "History cleared: the next question starts afresh (/inspect keeps {}).",
                plural(turns, "turn")
            ),
            theme.warn(),
        ));
    }
    lines.push(Line::styled(focus::welcome_prompt(view), theme.text()));
    Paragraph::new(lines)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}

/// One row per agent, its name and its backend and model: every row padded to the same
/// display width, so that centring them keeps the names in one column.
fn agent_rows(state: &UiState, theme: &Theme, lines: &mut Vec<Line<'static>>) {
    let rows: Vec<(String, String)> = state
        .agents
        .iter()
        .map(|card| {
            (
                card.info.id.to_string(),
                format!("{} · {}", card.info.backend, card.info.model),
            )
        })
        .collect();
    let widest = |column: fn(&(String, String)) -> &String| {
        rows.iter()
            .map(|row| display_width(column(row)))
            .max()
            .unwrap_or(0)
    };
    let (names, models) = (widest(|row| &row.0), widest(|row| &row.1));
    for (index, (name, model)) in rows.into_iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(format!("{}  ", pad_to(&name, names)), theme.agent(index)),
            Span::styled(pad_to(&model, models), theme.dim()),
        ]));
    }
}

/// Startup warnings the welcome view lists before pointing to `/status` for the rest.
const WARNINGS_SHOWN: usize = 3;

/// How many warnings the run started with, the first few, and where to see them all.
fn warnings(warnings: &[String], theme: &Theme, lines: &mut Vec<Line<'static>>) {
    if warnings.is_empty() {
        return;
    }
    let rest = if warnings.len() > WARNINGS_SHOWN {
        " (/status lists them all; massgen.log keeps them)"
    } else {
        " (massgen.log keeps them)"
    };
    lines.push(Line::styled(
        format!("⚠ {}{rest}:", plural(warnings.len(), "warning")),
        theme.warn(),
    ));
    for warning in warnings.iter().take(WARNINGS_SHOWN) {
        lines.push(Line::styled(warning.clone(), theme.warn()));
    }
    if warnings.len() > WARNINGS_SHOWN {
        lines.push(Line::styled(
            format!("… and {} more", warnings.len() - WARNINGS_SHOWN),
            theme.dim(),
        ));
    }
    lines.push(Line::default());
}
