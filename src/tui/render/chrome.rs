//! The one-line bars around the cards: the header (turn and its mode, question, time,
//! tokens, cost), the tab bar of the narrow layout, a replay's bar (drawn in the mode
//! bar's place), and the status bar (phase, progress, hints).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::View;
use super::format::{cost, duration, plural, short_plan_id, status_icon, total_tokens};
use super::wrap::{display_width, truncate, truncate_start};
use crate::protocol::{McpServerState, Mode};
use crate::session::format_usd;
use crate::tui::state::{Phase, ReplayState, UiState};
use crate::tui::theme::Theme;

pub fn header(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let spend = state.session_usage();
    let time = match (state.turn, view.elapsed_secs) {
        (1.., Some(secs)) => format!("⏱ {}  ", duration(secs)),
        (0, _) | (_, None) => String::new(),
    };
    let budget = match (view.budget_usd, state.turn) {
        (Some(budget), 1..) => format!(
            "  budget {}/{}",
            cost(&state.turn_usage()),
            format_usd(budget)
        ),
        (Some(budget), 0) => format!("  budget {}/turn", format_usd(budget)),
        (None, _) => String::new(),
    };
    let session = format!(
        "session {} tok {}",
        total_tokens(&spend.usage),
        cost(&spend)
    );
    let figures = if state.turn == 0 {
        session
    } else {
        let turn = state.turn_usage();
        format!(
            "turn {} tok {} · {session}",
            total_tokens(&turn.usage),
            cost(&turn)
        )
    };
    let right = format!(" {time}{figures}{budget} ");
    let left = if state.turn == 0 {
        " ◈ massgen".to_string()
    } else {
        let attempt = match state.attempt {
            Some((attempt, max_attempts)) if attempt > 1 => {
                format!(" · attempt {attempt}/{max_attempts}")
            }
            Some(_) | None => String::new(),
        };
        format!(" ◈ Turn {}{}{attempt} ", state.turn, turn_mode(state))
    };
    let room =
        usize::from(area.width).saturating_sub(display_width(&left) + display_width(&right) + 1);
    let question = truncate(&state.question.replace('\n', " "), room);
    let padding = room.saturating_sub(display_width(&question));
    Paragraph::new(Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::styled(question, theme.text()),
        Span::raw(" ".repeat(padding + 1)),
        Span::styled(right, theme.dim()),
    ]))
    .render(area, buf);
}

/// ` · Planning ·`, ` · Executing plan_20261124_1740… ·`; nothing for a normal turn.
fn turn_mode(state: &UiState) -> String {
    match state.mode {
        Mode::Normal => String::new(),
        Mode::Planning => " · Planning ·".into(),
        Mode::Execute => {
            let asked = state
                .turn_options
                .plan
                .as_deref()
                .filter(|plan| *plan != "latest");
            let known = state.plan.as_ref().map(|plan| plan.info.id.as_str());
            match asked.or(known) {
                Some(id) => format!(" · Executing {} ·", short_plan_id(id, 18)),
                None => " · Executing the latest plan ·".into(),
            }
        }
    }
}

/// One tab per agent: status icon, id and short model; the focused one reversed.
pub fn tabs(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let mut spans = Vec::new();
    for (index, card) in state.agents.iter().enumerate() {
        let label = format!(
            " {} {}:{} {} ",
            status_icon(card.status, card.is_winner, view.spinner),
            index + 1,
            card.info.id,
            card.short_model()
        );
        let style = if index == view.focused {
            theme
                .agent(index)
                .add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            theme.agent(index)
        };
        spans.push(Span::styled(label, style));
    }
    // Each tab is a place to click (the mouse focuses its agent).
    let mut x = area.x;
    for (index, span) in spans.iter().enumerate() {
        let width = u16::try_from(span.width())
            .unwrap_or(u16::MAX)
            .min(area.right().saturating_sub(x));
        if width == 0 {
            break;
        }
        let tab = Rect { x, width, ..area };
        view.hits.borrow_mut().cards.push((index, tab));
        x += width;
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

/// ` ▶ Replay · 10× the recorded pace · playing · `: the replay bar before its source.
pub(super) fn replay_fixed(replay: &ReplayState) -> String {
    let pacing = if replay.step {
        "step by step (n: next)".to_string()
    } else {
        format!("{}× the recorded pace", replay.speed)
    };
    let progress = if replay.finished {
        "finished"
    } else {
        "playing"
    };
    format!(" ▶ Replay · {pacing} · {progress} · ")
}

/// `▶ Replay · 10× the recorded pace · playing · <source>`, and the notice if it fits
/// beside it (`inline`).
pub(super) fn replay_bar(
    replay: &ReplayState,
    inline: Option<&str>,
    theme: &Theme,
    width: u16,
) -> Line<'static> {
    let fixed = replay_fixed(replay);
    let notice = inline
        .map(|notice| format!("   {notice}"))
        .unwrap_or_default();
    let room = usize::from(width).saturating_sub(display_width(&fixed) + display_width(&notice));
    let source = truncate_start(&replay.source.display().to_string(), room);
    Line::from(vec![
        Span::styled(fixed, theme.accent()),
        Span::styled(source, theme.dim()),
        Span::styled(notice, theme.warn()),
    ])
}

pub fn status_bar(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let phase = match (state.phase, state.mode) {
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
    let answers: u32 = state.agents.iter().map(|card| card.answers).sum();
    let progress = match (&state.winner, state.phase) {
        (Some(winner), Phase::Idle | Phase::Presenting) => format!("🏆 {winner} wins"),
        (Some(_) | None, _) => format!(
            "{} | {} | {}/{} votes",
            plural(state.agents.len(), "agent"),
            plural(answers as usize, "answer"),
            state.votes.standing_votes(),
            state.agents.len()
        ),
    };
    let running: usize = state.agents.iter().map(|card| card.running_tools).sum();
    let tools = if running > 0 {
        format!("  🔧 {running} running")
    } else {
        String::new()
    };
    let queued = if state.queued_input.is_empty() {
        String::new()
    } else {
        format!("  👤 {} queued", state.queued_input.len())
    };
    let grid = super::grid::hint(
        state.agents.len(),
        view.single_card,
        view.maximized,
        view.hits.borrow().cards_body,
    )
    .filter(|_| !view.composer_focused)
    .unwrap_or_default();
    let hints = format!("{grid}{}", hints(state, view));
    let mcp = mcp_summary(state);
    let cwd = view
        .context
        .badge()
        .map(|badge| format!("  {badge}"))
        .unwrap_or_default();
    let left = format!(" {phase}  {progress}{tools}{queued}{mcp}{cwd}  ");
    let room = usize::from(area.width).saturating_sub(display_width(&left));
    let hints = truncate(&hints, room);
    let padding = room.saturating_sub(display_width(&hints));
    Paragraph::new(Line::from(vec![
        Span::styled(left, theme.text()),
        Span::raw(" ".repeat(padding)),
        Span::styled(hints, theme.dim()),
    ]))
    .render(area, buf);
}

fn hints(state: &UiState, view: &View) -> &'static str {
    let stepping = state
        .replay
        .as_ref()
        .is_some_and(|replay| replay.step && !replay.finished);
    match (state.replay.is_some(), view.composer_focused) {
        (true, true) => "replay: nothing is sent · Esc: shortcuts · ?: help · /quit ",
        (true, false) if stepping => "n: next step · ?: help · v votes · t timeline · q: quit ",
        (true, false) => "?: help · v votes · c costs · t timeline · q: quit ",
        (false, true) if state.is_running() => {
            "Enter: queue for the agents' next tool result · Esc: shortcuts · Ctrl+C: cancel "
        }
        (false, true) => "Enter: ask · / commands · ?: help · Esc: shortcuts ",
        (false, false) if view.final_view && state.final_answer().is_some() => {
            "f: cards · y: copy · ↑↓ scroll · ?: help · i: type · q: quit "
        }
        (false, false) if state.final_answer().is_some() && !state.is_running() => {
            "f: final answer · y: copy · ?: help · v votes · i: type · q: quit "
        }
        (false, false) => "?: help · v votes · c costs · t timeline · i: type · q: quit ",
    }
}

/// `  🔌 2 starting` while MCP servers start, then `  🔌 3/4 up` (`m` tells more).
fn mcp_summary(state: &UiState) -> String {
    if state.servers.is_empty() {
        return String::new();
    }
    let count = |wanted: fn(&McpServerState) -> bool| {
        state
            .servers
            .iter()
            .filter(|row| wanted(&row.state))
            .count()
    };
    let starting = count(|state| matches!(state, McpServerState::Starting));
    if starting > 0 {
        return format!("  🔌 {starting} starting");
    }
    let up = count(|state| matches!(state, McpServerState::Ready { .. }));
    format!("  🔌 {up}/{} up", state.servers.len())
}
