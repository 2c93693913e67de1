//! `/history` (key `h`): the conversation so far, every finished turn's question and its
//! final answer (the one chosen by override, if any) drawn as markdown, oldest first.

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::tui::render::text::markdown_lines;
use crate::tui::render::wrap::{display_width, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    if state.turns.is_empty() {
        return vec![Line::styled(
            "No finished turn yet: the conversation starts with your first question.",
            theme.dim(),
        )];
    }
    let mut lines = Vec::new();
    for turn in &state.turns {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        // The question follows its turn number; its wrapped lines hang under its start.
        let head = format!("{} ▸ ", turn.turn);
        let indent = display_width(&head);
        let question = wrap(&turn.question, width.saturating_sub(indent).max(1));
        for (row, line) in question.into_iter().enumerate() {
            let lead = if row == 0 {
                head.clone()
            } else {
                " ".repeat(indent)
            };
            lines.push(Line::styled(
                format!("{lead}{line}"),
                theme.accent().add_modifier(Modifier::BOLD),
            ));
        }
        match &turn.final_answer {
            Some(answer) => {
                let index = state.agent_index(&answer.agent).unwrap_or(0);
                lines.push(Line::styled(
                    format!("{} · {}", answer.agent, answer.label),
                    theme.agent(index),
                ));
                lines.extend(markdown_lines(&answer.content, width, theme));
            }
            None => lines.push(Line::styled(
                format!("no final answer ({:?})", turn.outcome).to_lowercase(),
                theme.dim(),
            )),
        }
    }
    lines
}
