//! One whole frame: the header, the body (the welcome view, the final answer or the cards),
//! the timeline and tallies, the mode bar, the composer and its completions, the status
//! bar, and the top modal over them all. A pure function of the folded state, the view and
//! the app's choices for the next question.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::choices::NextQuestion;
use crate::tui::composer::Placeholder;
use crate::tui::modal;
use crate::tui::render::card::CardView;
use crate::tui::render::timeline::TimelineView;
use crate::tui::render::{chrome, final_view, grid, mode_bar, popup, status_bar, tally, welcome};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::{HitMap, View};

/// Below this height the timeline and tallies give their rows to the cards.
const MIN_HEIGHT_WITH_TIMELINE: u16 = 18;

pub fn render(state: &UiState, view: &View, next: &NextQuestion, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    let final_shown = final_view::shown(state, view);
    let bottom_height = if state.turn.number == 0 || view.cards.maximized || final_shown {
        0
    } else if area.height >= 30 {
        10
    } else if area.height >= MIN_HEIGHT_WITH_TIMELINE {
        6
    } else {
        0
    };
    let bar = mode_bar::layout(state, view, next, area.width, area.height);
    let [header, body, bottom, mode, composer, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(bottom_height),
        Constraint::Length(bar.height),
        Constraint::Length(view.input.composer.height(area.width, area.height)),
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
                scroll: view.timeline.scroll,
                focused: view.timeline.focused,
                selected: view.timeline.selected,
                hits: Some(&view.hits),
            },
            timeline,
            buf,
        );
        ratatui::widgets::Widget::render(tally::TallyView { state, theme }, tally, buf);
    }
    let buf = frame.buffer_mut();
    mode_bar::mode_bar(state, view, next, &bar, theme, mode, buf);
    let placeholder = if !view.input.focused {
        Placeholder::Unfocused
    } else if state.replay.is_some() {
        Placeholder::Replay
    } else if state.is_running() {
        Placeholder::Steer
    } else {
        Placeholder::Ask
    };
    frame.render_widget(
        view.input
            .composer
            .widget(view.input.focused, placeholder, theme),
        composer,
    );
    status_bar::render(state, view, theme, status, frame.buffer_mut());
    if let Some(completions) = &view.input.popup {
        popup::render(completions, theme, composer, frame);
    }
    modal::render(view, state, next, theme, frame, mode);
}

/// The cards in the body: all of them side by side or in a grid when they fit (and `g`
/// has not chosen one), else the focused one under a tab bar.
fn cards(state: &UiState, view: &View, theme: &Theme, area: Rect, frame: &mut Frame) {
    view.hits.borrow_mut().cards_body = Some(area);
    let card = |index: usize| CardView {
        card: &state.agents[index],
        index,
        focused: index == view.cards.focused,
        theme,
        elapsed_secs: view.clocks.agent_elapsed_secs.get(index).copied().flatten(),
        round_left: view.clocks.agent_round_left.get(index).copied().flatten(),
        spinner: view.clocks.spinner,
        expanded: view.cards.reasoning_expanded,
        zoomed: view.cards.maximized,
        scroll_max: (index == view.cards.focused).then_some(&view.cards.scroll_max),
        scroll: if index == view.cards.focused {
            view.cards.scroll
        } else {
            0
        },
        pause: view.cards.pause.filter(|_| index == view.cards.focused),
        stage: state.strategy.stage_of(&state.agents[index].info.id),
    };
    let all = (!view.cards.maximized && !view.cards.single)
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
        if view.cards.focused < state.agents.len() {
            frame.render_widget(card(view.cards.focused), body);
            view.hits
                .borrow_mut()
                .cards
                .push((view.cards.focused, body));
        }
    }
}
