//! The status bar at the very bottom: phase and progress on the left, key hints on the
//! right. What does not fit is dropped whole, least important first, so no hint is ever cut
//! mid-word; how to quit (or cancel), and how to get help where `?` opens it, always stay.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::format::plural;
use super::wrap::{display_width, truncate};
use crate::protocol::{AgentId, McpServerState, Mode, Stage, TurnOutcome, WinnerBasis};
use crate::tui::state::{Phase, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::View;

use crate::tui::focus::{self, KEEP};

/// One piece of the bar and how soon it goes when the bar is too narrow: the highest
/// `drop` first, the rightmost of equals first; `KEEP` never. A piece with a `shorter`
/// form gives way to it first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    text: String,
    drop: u8,
    shorter: Option<(String, u8)>,
}

fn piece(text: impl Into<String>, drop: u8) -> Piece {
    Piece {
        text: text.into(),
        drop,
        shorter: None,
    }
}

impl Piece {
    /// Its shorter form if it has one, else `None`: it goes.
    fn shrunk(self) -> Option<Piece> {
        let (text, drop) = self.shorter?;
        Some(piece(text, drop))
    }
}

pub fn render(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let (left, right) = fit(left_pieces(state, view), hints(state, view), area.width);
    let room = usize::from(area.width).saturating_sub(display_width(&right));
    let left = truncate(&left, room);
    let padding = room.saturating_sub(display_width(&left));
    Paragraph::new(Line::from(vec![
        Span::styled(left, theme.text()),
        Span::raw(" ".repeat(padding)),
        Span::styled(right, theme.dim()),
    ]))
    .render(area, buf);
}

/// The left and right texts of the bar at `width` columns, with pieces dropped until both
/// fit with a gap of two columns between them (if the kept ones alone do not fit, the
/// left is cut at its end when drawn).
fn fit(mut left: Vec<Piece>, mut right: Vec<Piece>, width: u16) -> (String, String) {
    let text = |left: &[Piece], right: &[Piece]| {
        let join = |pieces: &[Piece], between: &str| {
            pieces
                .iter()
                .map(|piece| piece.text.as_str())
                .collect::<Vec<_>>()
                .join(between)
        };
        (
            format!(" {}", join(left, "  ")),
            if right.is_empty() {
                String::new()
            } else {
                format!("{} ", join(right, " · "))
            },
        )
    };
    loop {
        let (shown_left, shown_right) = text(&left, &right);
        if display_width(&shown_left) + 2 + display_width(&shown_right) <= usize::from(width) {
            return (shown_left, shown_right);
        }
        // The piece to drop: the highest `drop`, the rightmost of equals (right of left).
        let candidates = left
            .iter()
            .enumerate()
            .map(|(index, piece)| (piece.drop, 0, index))
            .chain(
                right
                    .iter()
                    .enumerate()
                    .map(|(index, piece)| (piece.drop, 1, index)),
            )
            .filter(|(drop, _, _)| *drop != KEEP);
        let pieces = match candidates.max() {
            Some((_, 0, index)) => (&mut left, index),
            Some((_, _, index)) => (&mut right, index),
            None => return (shown_left, shown_right),
        };
        let (pieces, index) = pieces;
        let gone = pieces.remove(index);
        if let Some(shorter) = gone.shrunk() {
            pieces.insert(index, shorter);
        }
    }
}

/// Phase, progress, running tools, queued input, MCP servers and the attached directory.
fn left_pieces(state: &UiState, view: &View) -> Vec<Piece> {
    let phase = match (state.turn.phase, state.turn.mode) {
        (Phase::Idle, Mode::Normal | Mode::Planning | Mode::Execute) => "⏳ Idle",
        (Phase::Coordinating, Mode::Normal) => "🔄 Coordinating",
        (Phase::Voting, Mode::Normal) => "🗳 Voting",
        (Phase::Presenting, Mode::Normal) => "🎯 Presenting",
        (Phase::Coordinating, Mode::Planning) => "🔄 Planning",
        (Phase::Voting, Mode::Planning) => "🗳 Planning · voting",
        (Phase::Presenting, Mode::Planning) => "🎯 Planning · presenting",
        (Phase::Coordinating, Mode::Execute) => "🔄 Executing",
        (Phase::Voting, Mode::Execute) => "🗳 Executing · voting",
        (Phase::Presenting, Mode::Execute) => "🎯 Executing · presenting",
    };
    // Last of all, the phase gives way to its icon.
    let icon = phase.split_whitespace().next().unwrap_or(phase);
    let mut pieces = vec![Piece {
        text: phase.to_string(),
        drop: 1,
        shorter: Some((icon.to_string(), KEEP)),
    }];
    let answers: u32 = state.agents.iter().map(|card| card.answers).sum();
    match turn_result(state) {
        Some(result) => pieces.push(piece(result, 2)),
        None => {
            let votes = format!(
                "{} | {}",
                plural(answers as usize, "answer"),
                decision_progress(state)
            );
            pieces.push(Piece {
                text: format!("{} | {votes}", plural(state.agents.len(), "agent")),
                drop: 5,
                shorter: Some((votes, 2)),
            });
        }
    }
    let running: usize = state.agents.iter().map(|card| card.running_tools).sum();
    if running > 0 {
        pieces.push(piece(format!("🔧 {running} running"), 4));
    }
    if !state.queued_input.is_empty() {
        pieces.push(piece(format!("👤 {} queued", state.queued_input.len()), 3));
    }
    let waiting = state.approvals.pending.len();
    if waiting > 0 && state.replay.is_none() {
        // Calls stand still until someone answers: this never gives way.
        pieces.push(piece(
            format!("⚠ {} waiting", plural(waiting, "approval")),
            KEEP,
        ));
    }
    if let Some(mcp) = mcp_summary(state) {
        pieces.push(piece(mcp, 5));
    }
    if let Some(badge) = view.context.badge() {
        pieces.push(piece(badge, 5));
    }
    pieces
}

/// How the turn ended (or who presents), as the turn's outcome says: a winner only when
/// its final answer stands; `None` while agents still answer and vote.
fn turn_result(state: &UiState) -> Option<String> {
    let winner = state.turn.winner.as_ref();
    match (state.turn.phase, state.turn.outcome, winner) {
        (Phase::Presenting, _, Some(winner)) => Some(chosen(state, winner)),
        (Phase::Idle, Some(TurnOutcome::Cancelled), Some(winner)) => {
            let finished = state.final_answer().is_some_and(|answer| answer.done);
            Some(if finished {
                format!("✗ cancelled · {winner} had won")
            } else {
                format!("✗ cancelled · {winner}'s final answer incomplete")
            })
        }
        (Phase::Idle, Some(TurnOutcome::Cancelled), None) => Some("✗ cancelled".to_string()),
        (Phase::Idle, Some(TurnOutcome::TimedOut), Some(winner)) => {
            Some(format!("⌛ timed out · best answer by {winner}"))
        }
        (Phase::Idle, Some(TurnOutcome::TimedOut), None) => Some("⌛ timed out".to_string()),
        (Phase::Idle, Some(TurnOutcome::Failed), _) => Some("✗ no answer".to_string()),
        (Phase::Idle, Some(TurnOutcome::Completed) | None, Some(winner)) => {
            Some(chosen(state, winner))
        }
        _ => None,
    }
}

/// `🏆 a wins`, or in decomposition mode `🏆 a presents` (no vote chose it).
fn chosen(state: &UiState, winner: &AgentId) -> String {
    match state.votes.final_basis {
        Some(WinnerBasis::Presenter) => format!("🏆 {winner} presents"),
        _ => format!("🏆 {winner} wins"),
    }
}

/// The keys worth knowing now, in reading order, each with how soon it goes: the ones
/// that work where the focus is (`focus.rs`).
fn hints(state: &UiState, view: &View) -> Vec<Piece> {
    let grid = focus::grid_hint(
        view,
        super::grid::hint(
            state.agents.len(),
            view.cards.single,
            view.cards.maximized,
            view.hits.borrow().cards_body,
        ),
    )
    .map(|hint| piece(hint.trim_end_matches(" · "), 6));
    grid.into_iter()
        .chain(
            focus::status_hints(state, view)
                .into_iter()
                .map(|(text, drop)| piece(text, drop)),
        )
        .collect()
}

/// `🔌 2 starting` while MCP servers start, then `🔌 3/4 up` (`m` tells more).
fn mcp_summary(state: &UiState) -> Option<String> {
    if state.tools.servers.is_empty() {
        return None;
    }
    let count = |wanted: fn(&McpServerState) -> bool| {
        state
            .tools
            .servers
            .iter()
            .filter(|row| wanted(&row.state))
            .count()
    };
    let starting = count(|state| matches!(state, McpServerState::Starting));
    if starting > 0 {
        return Some(format!("🔌 {starting} starting"));
    }
    let up = count(|state| matches!(state, McpServerState::Ready { .. }));
    Some(format!("🔌 {up}/{} up", state.tools.servers.len()))
}

/// How far the turn's decision is: standing votes in a vote turn (and a debate's final vote),
/// the ballots in a council's ranking, else the council or debate stage the turn is in.
fn decision_progress(state: &UiState) -> String {
    let strategy = &state.strategy;
    match strategy.stage {
        None | Some(Stage::FinalVote) => format!(
            "{}/{} votes",
            state.votes.standing_votes(),
            state.agents.len()
        ),
        Some(Stage::Ranking) => format!("ranking: {}", plural(strategy.ballots.len(), "ballot")),
        Some(stage) => stage.label(),
    }
}

#[cfg(test)]
#[path = "status_bar_tests.rs"]
mod tests;
