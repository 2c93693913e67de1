//! The debate view (`D`, `/debate`): a debate turn as a thread per round, each member's
//! critique (whom it targets, its text folded to two lines) and then its revised answer
//! (folded the same way); the answers view and the cards hold them in full.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::AgentId;
use crate::tui::render::wrap::wrap;
use crate::tui::state::{UiState, preview};
use crate::tui::theme::Theme;

/// Lines a folded critique or revision takes at most.
const FOLDED_LINES: usize = 2;
const INDENT: &str = "    ";

pub(super) fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let rounds = &state.strategy.rounds;
    if rounds.is_empty() {
        return vec![Line::styled(
            "No debate in this turn: debate turns (orchestrator.strategy: debate) show each \
             round's critiques and revisions here.",
            theme.dim(),
        )];
    }
    let name = |agent: &AgentId| {
        let index = state.agent_index(agent).unwrap_or(0);
        Span::styled(
            format!("  {agent}"),
            theme.agent(index).add_modifier(Modifier::BOLD),
        )
    };
    let mut lines = Vec::new();
    for round in rounds {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        lines.push(Line::styled(
            format!("Round {}", round.round),
            theme.accent().add_modifier(Modifier::BOLD),
        ));
        lines.push(Line::styled(" Critiques", theme.dim()));
        if round.critiques.is_empty() {
            lines.push(Line::styled("  none yet", theme.dim()));
        }
        for critique in &round.critiques {
            let targets = critique
                .targets
                .iter()
                .map(AgentId::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            lines.push(Line::from(vec![
                name(&critique.critic),
                Span::styled(format!(" → {targets}"), theme.dim()),
            ]));
            folded(&critique.content, theme, width, &mut lines);
        }
        lines.push(Line::styled(" Revisions", theme.dim()));
        if round.revisions.is_empty() {
            lines.push(Line::styled("  none yet", theme.dim()));
        }
        for (member, answer) in &round.revisions {
            lines.push(Line::from(name(member)));
            folded(answer, theme, width, &mut lines);
        }
    }
    lines
}

/// `text` on at most two indented lines, cut with `…`.
fn folded(text: &str, theme: &Theme, width: usize, lines: &mut Vec<Line<'static>>) {
    let room = width.saturating_sub(INDENT.len()).max(10);
    let flat = preview(text, room * FOLDED_LINES);
    let mut wrapped = wrap(&flat, room);
    if wrapped.len() > FOLDED_LINES {
        wrapped.truncate(FOLDED_LINES);
        if let Some(last) = wrapped.last_mut() {
            last.push('…');
        }
    }
    for line in wrapped {
        lines.push(Line::styled(format!("{INDENT}{line}"), theme.text()));
    }
}
