//! Drawing a frame: a pure function of the folded state and the view settings (focus,
//! scroll, mode, composer). Layout adapts from 80×24 up: cards side by side when each gets
//! 40 columns, a grid of them when each fits 40×8 (`grid.rs`), else a tab bar and the
//! focused card.

mod card;
mod chrome;
mod final_view;
mod format;
pub mod grid;
mod hits;
mod inline;
mod line_kind;
mod mode_bar;
mod notice;
mod output;
mod paint;
mod partial;
mod status_bar;
mod tally;
mod text;
mod timeline;
mod timeline_text;
mod welcome;
pub(crate) mod wrap;

use std::cell::{Cell, RefCell};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

pub use card::CardView;
pub use format::{bytes, cost, duration, plural, seconds, short_plan_id, tokens};
pub use hits::{Hit, HitMap};
pub use output::{Paint, tail_lines};
pub use paint::clear_for_overlay;
pub use text::markdown_lines;
pub use timeline::{TimelineView, entry_line};
pub use timeline_text::describe;
pub use wrap::{display_width, truncate, wrap};

use crate::protocol::Mode;
use crate::tui::choices::Choices;
use crate::tui::complete::Popup;
use crate::tui::composer::{Composer, Placeholder};
use crate::tui::files::FileListing;
use crate::tui::modal::{self, Modal};
use crate::tui::question::QuestionForm;
use crate::tui::state::RoundTimeLeft;
use crate::tui::state::{OutputMark, UiState};
use crate::tui::theme::Theme;

/// Narrowest card shown side by side with the others.
pub const MIN_CARD_WIDTH: u16 = grid::READABLE_WIDTH;

/// Below this height the timeline and tallies give their rows to the cards.
const MIN_HEIGHT_WITH_TIMELINE: u16 = 18;

/// What the user chose to look at; everything else comes from [`UiState`].
#[derive(Clone, Debug, Default)]
pub struct View {
    pub focused: usize,
    /// The focused card fills the body (the timeline and tallies give way).
    pub maximized: bool,
    /// The body shows the turn's final answer (`f`), read from the top.
    pub final_view: bool,
    /// Lines scrolled down from the final answer's top, and the furthest the last frame
    /// allowed.
    pub final_scroll: usize,
    pub final_scroll_max: Cell<usize>,
    /// Lines scrolled up in the focused card (0 = follow).
    pub card_scroll: usize,
    /// Where the focused card's output ended when it was scrolled up: it shows no more
    /// until it follows again.
    pub card_pause: Option<OutputMark>,
    /// Entries scrolled up in the timeline (0 = follow).
    pub timeline_scroll: usize,
    /// PgUp/PgDn, arrows and the wheel scroll the timeline instead of the focused card.
    pub timeline_focused: bool,
    /// Cards show reasoning in full instead of its last line.
    pub reasoning_expanded: bool,
    pub mode: Mode,
    /// Depth, feedback, auto-execution, plan, agents and refinement for the next question.
    pub choices: Choices,
    /// A one-line message (e.g. a refused mode change).
    pub notice: Option<String>,
    pub composer: Composer,
    pub composer_focused: bool,
    /// Seconds since the turn started, and per agent since it became active.
    pub elapsed_secs: Option<u64>,
    pub agent_elapsed_secs: Vec<Option<u64>>,
    /// Per agent, where its running round stands against its time limit.
    pub agent_round_left: Vec<Option<RoundTimeLeft>>,
    /// Open modals, the top one last.
    pub modals: Vec<Modal>,
    /// Completions for what the composer holds.
    pub popup: Option<Popup>,
    /// What the workspace browser shows, read when it opened or its choice changed.
    pub files: FileListing,
    /// Spinner frame for working agents.
    pub spinner: usize,
    /// The furthest the focused card and the top modal can scroll, as the last frame found
    /// (`usize::MAX` while more output lies beyond what was built).
    pub card_scroll_max: Cell<usize>,
    pub modal_scroll_max: Cell<usize>,
    /// The open question modal's form.
    pub question: Option<QuestionForm>,
    /// Seconds before the open question times out, by the clock.
    pub question_secs_left: Option<u64>,
    /// The saved plans were asked for and the listing has not come yet.
    /// The turn's cost budget (`--max-cost`, `orchestrator.max_cost_usd`), shown in the
    /// header against the turn's spend.
    pub budget_usd: Option<f64>,
    pub plans_loading: bool,
    /// What `/context` shows beyond the folded state, and the Ctrl+P choice.
    pub context: modal::ContextInfo,
    /// The agents view's form while it is open.
    pub agents: Option<crate::tui::modal::agents_form::AgentsForm>,
    /// Where the last frame drew cards, timeline rows, the modal and the composer (for
    /// the mouse).
    pub hits: RefCell<HitMap>,
    /// The timeline entry a click selected (a second click or Enter opens it).
    pub timeline_selected: Option<usize>,
    /// `g`: one focused card under a tab bar, even when every card would fit side by side
    /// or in a grid (kept for the session).
    pub single_card: bool,
}

pub fn render(state: &UiState, view: &View, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    let final_shown = final_view::shown(state, view);
    let bottom_height = if state.turn.number == 0 || view.maximized || final_shown {
        0
    } else if area.height >= 30 {
        10
    } else if area.height >= MIN_HEIGHT_WITH_TIMELINE {
        6
    } else {
        0
    };
    let bar = mode_bar::layout(state, view, area.width, area.height);
    let [header, body, bottom, mode, composer, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(bottom_height),
        Constraint::Length(bar.height),
        Constraint::Length(view.composer.height(area.width, area.height)),
        Constraint::Length(1),
    ])
    .areas(area);
    view.hits.replace(HitMap {
        composer: Some(composer),
        screen: Some(area),
        ..HitMap::default()
    });
    let buf = frame.buffer_mut();
    chrome::header(state, view, theme, header, buf);
    if state.turn.number == 0 {
        welcome::render(state, view, theme, body, buf);
    } else if final_shown {
        view.hits.borrow_mut().final_view = Some(body);
        final_view::render(state, view, theme, body, buf);
    } else {
        cards(state, view, theme, body, frame);
    }
    if bottom_height > 0 {
        let buf = frame.buffer_mut();
        let [timeline, tally] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(1)]).areas(bottom);
        ratatui::widgets::Widget::render(
            TimelineView {
                state,
                theme,
                scroll: view.timeline_scroll,
                focused: view.timeline_focused,
                selected: view.timeline_selected,
                hits: Some(&view.hits),
            },
            timeline,
            buf,
        );
        ratatui::widgets::Widget::render(tally::TallyView { state, theme }, tally, buf);
    }
    let buf = frame.buffer_mut();
    mode_bar::mode_bar(state, view, &bar, theme, mode, buf);
    let placeholder = if !view.composer_focused {
        Placeholder::Unfocused
    } else if state.replay.is_some() {
        Placeholder::Replay
    } else if state.is_running() {
        Placeholder::Steer
    } else {
        Placeholder::Ask
    };
    frame.render_widget(
        view.composer
            .widget(view.composer_focused, placeholder, theme),
        composer,
    );
    status_bar::render(state, view, theme, status, frame.buffer_mut());
    if let Some(popup) = &view.popup {
        popup_list(popup, theme, composer, frame);
    }
    modal::render(view, state, theme, frame, mode);
}

fn cards(state: &UiState, view: &View, theme: &Theme, area: Rect, frame: &mut Frame) {
    view.hits.borrow_mut().cards_body = Some(area);
    let card = |index: usize| CardView {
        card: &state.agents[index],
        index,
        focused: index == view.focused,
        theme,
        elapsed_secs: view.agent_elapsed_secs.get(index).copied().flatten(),
        round_left: view.agent_round_left.get(index).copied().flatten(),
        spinner: view.spinner,
        expanded: view.reasoning_expanded,
        zoomed: view.maximized,
        scroll_max: (index == view.focused).then_some(&view.card_scroll_max),
        scroll: if index == view.focused {
            view.card_scroll
        } else {
            0
        },
        pause: view.card_pause.filter(|_| index == view.focused),
    };
    let all = (!view.maximized && !view.single_card)
        .then(|| grid::arrange(state.agents.len(), area))
        .flatten();
    if let Some(cells) = all {
        for (index, cell) in cells.into_iter().enumerate() {
            frame.render_widget(card(index), cell);
            view.hits.borrow_mut().cards.push((index, cell));
        }
    } else {
        let [tabs, body] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
        chrome::tabs(state, view, theme, tabs, frame.buffer_mut());
        if view.focused < state.agents.len() {
            frame.render_widget(card(view.focused), body);
            view.hits.borrow_mut().cards.push((view.focused, body));
        }
    }
}

#[cfg(test)]
mod attempt_tests;
#[cfg(test)]
mod composer_tests;
#[cfg(test)]
mod final_view_tests;
#[cfg(test)]
mod grid_snapshot_tests;
#[cfg(test)]
mod input_tests;
#[cfg(test)]
mod label_tests;
#[cfg(test)]
mod more_calls_tests;
#[cfg(test)]
mod notice_tests;
#[cfg(test)]
mod plan_outcome_tests;
#[cfg(test)]
mod plan_tests;
#[cfg(test)]
mod polish_tests;
#[cfg(test)]
mod provider_tool_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod streaming_tests;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod welcome_tests;
#[cfg(test)]
mod welcome_warnings_tests;

/// The completion list, just above the composer.
fn popup_list(popup: &Popup, theme: &Theme, composer: Rect, frame: &mut Frame) {
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Block, Borders, Paragraph};

    let height = u16::try_from(popup.items.len()).unwrap_or(8) + 2;
    let widest =
        |texts: &mut dyn Iterator<Item = &str>| texts.map(wrap::display_width).max().unwrap_or(0);
    let item_width = widest(&mut popup.items.iter().map(String::as_str));
    let note_width = widest(&mut popup.notes.iter().copied());
    // Each item, then what it does after a gap, cut at the frame's edge.
    let gap = if note_width == 0 { 0 } else { 2 };
    let room = usize::from(composer.width.saturating_sub(4));
    let width = (item_width + gap + note_width).clamp(18, room.max(18));
    let area = Rect {
        x: composer.x + 1,
        y: composer.y.saturating_sub(height),
        width: (u16::try_from(width).unwrap_or(u16::MAX).saturating_add(2))
            .min(composer.width.saturating_sub(2)),
        height: height.min(composer.y),
    };
    let lines: Vec<Line<'static>> = popup
        .items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let selected = index == popup.selected;
            let style = if selected {
                theme.selected()
            } else {
                theme.text()
            };
            let note = popup.notes.get(index).copied().unwrap_or_default();
            if note.is_empty() {
                return Line::styled(item.clone(), style);
            }
            let item = crate::text::pad_to(item, item_width + gap);
            let left = width.saturating_sub(wrap::display_width(&item));
            let note_style = if selected { style } else { theme.dim() };
            Line::from(vec![
                Span::styled(item, style),
                Span::styled(wrap::truncate(note, left), note_style),
            ])
        })
        .collect();
    paint::clear_for_overlay(frame.buffer_mut(), area);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::ALL)
                .border_style(theme.accent())
                .title(Line::styled(" Tab to complete ", theme.dim())),
        ),
        area,
    );
}
