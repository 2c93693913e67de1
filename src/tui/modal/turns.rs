//! `/inspect`: the session's turns, one line each (winner, duration, tokens, cost), and the
//! selected one in detail: its question, answers and votes with reasons, from the timeline.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::TurnOutcome;
use crate::tui::render::{cost, seconds, truncate, wrap};
use crate::tui::state::{EntryKind, UiState};
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme, width: usize, selected: usize) -> Vec<Line<'static>> {
    if state.turns.is_empty() {
        return vec![Line::styled("No finished turn yet.", theme.dim())];
    }
    let selected = selected.min(state.turns.len() - 1);
    let mut lines = vec![Line::styled("← → choose a turn", theme.dim())];
    for (index, turn) in state.turns.iter().enumerate() {
        let outcome = match turn.outcome {
            TurnOutcome::Completed => "done",
            TurnOutcome::TimedOut => "timed out",
            TurnOutcome::Cancelled => "cancelled",
            TurnOutcome::Failed => "failed",
        };
        let spent = cost(turn.cost_usd, turn.cost_unknown);
        let text = format!(
            "turn {:<3} {:<9} {:>6} s {:>8} tok {:>10}  {}  {}",
            turn.turn,
            outcome,
            seconds(turn.duration_ms),
            turn.usage.total(),
            spent,
            turn.winner
                .as_ref()
                .map(|winner| format!("🏆 {winner}"))
                .unwrap_or_default(),
            turn.question.replace('\n', " ")
        );
        let style = if index == selected {
            theme.selected()
        } else {
            theme.text()
        };
        lines.push(Line::styled(truncate(&text, width), style));
    }
    let turn = &state.turns[selected];
    lines.push(Line::default());
    lines.push(Line::styled(
        format!("Turn {}", turn.turn),
        theme.accent().add_modifier(Modifier::BOLD),
    ));
    for line in wrap(&turn.question, width) {
        lines.push(Line::styled(line, theme.text()));
    }
    lines.push(Line::default());
    for entry in state
        .timeline
        .iter()
        .filter(|entry| entry.turn == turn.turn)
    {
        let who = entry
            .agent
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let index = entry
            .agent
            .as_ref()
            .and_then(|agent| state.agent_index(agent))
            .unwrap_or(0);
        let text = match &entry.kind {
            EntryKind::Answer { label, preview } => format!("✨ {label}: {preview}"),
            EntryKind::Vote {
                target,
                target_label,
                reason,
            } => format!("🗳 → {target} ({target_label}): {reason}"),
            EntryKind::Error { message } => format!("✗ {message}"),
            EntryKind::TurnStarted { .. }
            | EntryKind::Restarted { .. }
            | EntryKind::VoteIgnored { .. }
            | EntryKind::Enforcement { .. }
            | EntryKind::Retrying { .. }
            | EntryKind::Killed { .. }
            | EntryKind::Winner { .. }
            | EntryKind::Presenting { .. }
            | EntryKind::FinalDone { .. }
            | EntryKind::Timeout { .. }
            | EntryKind::Cancelled
            | EntryKind::HumanInput { .. }
            | EntryKind::Warning { .. }
            | EntryKind::ToolRefused { .. }
            | EntryKind::TurnFinished { .. } => continue,
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{who} "), theme.agent(index)),
            Span::styled(
                truncate(&text, width.saturating_sub(who.chars().count() + 1)),
                theme.text(),
            ),
        ]));
    }
    lines
}
