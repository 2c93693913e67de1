//! `/events [N]`: the coordination events of the last N turns, grouped by turn, one line
//! each: the time since the turn started, the agent, and what happened (tool calls
//! included, streamed text not).

use jiff::Timestamp;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::render::format::seconds;
use crate::tui::render::timeline_text::describe;
use crate::tui::render::wrap::truncate;
use crate::tui::state::{EntryKind, TimelineEntry, UiState};
use crate::tui::theme::Theme;

/// `last` turns of events; `usize::MAX` for all of them.
pub fn lines(state: &UiState, theme: &Theme, width: usize, last: usize) -> Vec<Line<'static>> {
    let turns = turn_numbers(state);
    if turns.is_empty() {
        return vec![Line::styled("No events yet.", theme.dim())];
    }
    let mut lines = Vec::new();
    for turn in &turns[turns.len().saturating_sub(last)..] {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        turn_lines(state, theme, width, *turn, &mut lines);
    }
    lines
}

/// The turns the timeline holds, in order (events outside a turn are left out).
fn turn_numbers(state: &UiState) -> Vec<u32> {
    let mut turns: Vec<u32> = Vec::new();
    for entry in &state.timeline {
        if entry.turn != 0 && turns.last() != Some(&entry.turn) {
            turns.push(entry.turn);
        }
    }
    turns
}

fn turn_lines(
    state: &UiState,
    theme: &Theme,
    width: usize,
    turn: u32,
    lines: &mut Vec<Line<'static>>,
) {
    let mut entries: Vec<&TimelineEntry> = state
        .timeline
        .iter()
        .chain(&state.timeline.tool_log)
        .filter(|entry| entry.turn == turn)
        .collect();
    entries.sort_by_key(|entry| entry.seq);
    let start = entries
        .first()
        .map_or(Timestamp::UNIX_EPOCH, |entry| entry.at);
    for entry in entries {
        if let EntryKind::TurnStarted { turn, question } = &entry.kind {
            lines.push(Line::styled(
                truncate(
                    &format!("Turn {turn}: {}", question.replace('\n', " ")),
                    width,
                ),
                theme.accent().add_modifier(Modifier::BOLD),
            ));
            continue;
        }
        lines.push(event_line(state, theme, width, entry, start));
    }
}

/// `  +1.2 s  scout    ✔ agent1.1 Paris is …`
fn event_line(
    state: &UiState,
    theme: &Theme,
    width: usize,
    entry: &TimelineEntry,
    start: Timestamp,
) -> Line<'static> {
    let since = entry.at.duration_since(start).as_millis();
    let offset = format!("+{} s", seconds(u64::try_from(since).unwrap_or(0)));
    let (who, who_style) = entry.agent.as_ref().map_or_else(
        || (String::new(), theme.dim()),
        |agent| {
            let index = state.agent_index(agent).unwrap_or(0);
            (agent.to_string(), theme.agent(index))
        },
    );
    let offset = format!("{offset:>9}  ");
    let who = format!("{who:<12} ");
    let (text, style) = describe(&entry.kind, theme);
    let room = width.saturating_sub(offset.chars().count() + who.chars().count());
    Line::from(vec![
        Span::styled(offset, theme.dim()),
        Span::styled(who, who_style),
        Span::styled(truncate(&text, room), style),
    ])
}
