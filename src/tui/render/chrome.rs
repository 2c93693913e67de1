//! The one-line bars around the cards: the header (turn and its mode, question, time,
//! tokens, cost), the tab bar of the narrow layout and a replay's bar (drawn in the mode
//! bar's place). The status bar is `status_bar.rs`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::format::{cost, duration, short_plan_id, status_icon, total_tokens};
use super::wrap::{display_width, truncate, truncate_start};
use crate::protocol::Mode;
use crate::session::format_usd;
use crate::tui::focus;
use crate::tui::state::{ReplayState, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::View;

pub fn header(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let spend = state.session_usage();
    let time = match (state.turn.number, view.clocks.elapsed_secs) {
        (1.., Some(secs)) => format!("⏱ {}  ", duration(secs)),
        (0, _) | (_, None) => String::new(),
    };
    let budget = match (view.budget_usd, state.turn.number) {
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
    let figures = if state.turn.number == 0 {
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
    let left = if state.turn.number == 0 {
        " ◈ massgen".to_string()
    } else {
        let attempt = match state.turn.attempt {
            Some((attempt, max_attempts)) if attempt > 1 => {
                format!(" · attempt {attempt}/{max_attempts}")
            }
            Some(_) | None => String::new(),
        };
        format!(
            " ◈ Turn {}{}{attempt} ",
            state.turn.number,
            turn_mode(state)
        )
    };
    let room =
        usize::from(area.width).saturating_sub(display_width(&left) + display_width(&right) + 1);
    let question = truncate(&state.turn.question.replace('\n', " "), room);
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
    match state.turn.mode {
        Mode::Normal => String::new(),
        Mode::Planning => " · Planning ·".into(),
        Mode::Execute => {
            let asked = state
                .turn
                .options
                .plan
                .as_deref()
                .filter(|plan| *plan != "latest");
            let known = state
                .planning
                .plan
                .as_ref()
                .map(|plan| plan.info.id.as_str());
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
            status_icon(card.status, card.won(), view.clocks.spinner),
            index + 1,
            card.info.id,
            card.short_model()
        );
        let style = if index == view.cards.focused {
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
pub(super) fn replay_fixed(replay: &ReplayState, view: &View) -> String {
    let pacing = if replay.step {
        format!("step by step ({}n: next)", focus::key_lead(view))
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
    view: &View,
    inline: Option<&str>,
    theme: &Theme,
    width: u16,
) -> Line<'static> {
    let fixed = replay_fixed(replay, view);
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
