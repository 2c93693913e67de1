//! The mouse over a drawn frame: synthetic clicks and wheel notches at the places the
//! frame drew cards, timeline rows, the modal and the composer.

use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use super::App;
use super::tests::{key, top_modal};
use crate::tui::frame::render;
use crate::tui::modal;
use crate::tui::state::EntryKind;
use crate::tui::test_support::demo_turns;
use crate::tui::view::{Hit, HitMap, ModalKind};

const FRANCE: &str = "What is the capital of France?";

/// An app after a whole demo turn, back on the cards (`f`) from the final view.
async fn finished() -> App {
    let mut app = App::new(Vec::new());
    for event in demo_turns(&[FRANCE]).await {
        app.on_event(&event);
    }
    app.view.final_view.shown = false;
    app
}

/// Draws a frame (which records where things are) and returns its hit map.
fn frame(app: &App, width: u16, height: u16) -> HitMap {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
        .unwrap();
    app.view.hits.borrow().clone()
}

fn mouse(kind: MouseEventKind, rect: Rect) -> MouseEvent {
    MouseEvent {
        kind,
        column: rect.x + rect.width / 2,
        row: rect.y + rect.height / 2,
        modifiers: KeyModifiers::NONE,
    }
}

fn click(rect: Rect) -> MouseEvent {
    mouse(MouseEventKind::Down(MouseButton::Left), rect)
}

fn card(hits: &HitMap, index: usize) -> Rect {
    hits.cards
        .iter()
        .find(|(shown, _)| *shown == index)
        .map(|(_, rect)| *rect)
        .unwrap()
}

/// Scrolls the timeline (by wheel) until a row whose entry matches `wanted` is on screen.
fn timeline_row(app: &mut App, wanted: impl Fn(&EntryKind) -> bool) -> (Rect, usize) {
    for _ in 0..20 {
        let hits = frame(app, 160, 48);
        let found = hits
            .timeline_rows
            .iter()
            .find(|(_, entry)| wanted(&app.state.timeline[*entry].kind));
        if let Some(found) = found {
            return *found;
        }
        let pane = hits.timeline.unwrap();
        assert!(app.on_mouse(mouse(MouseEventKind::ScrollUp, pane)));
    }
    panic!("no such timeline row");
}

#[tokio::test(start_paused = true)]
async fn a_click_on_a_card_focuses_it_and_leaves_the_composer() {
    let mut app = finished().await;
    let hits = frame(&app, 160, 48);
    assert_eq!(hits.cards.len(), 3, "side by side at 160 columns");
    assert!(app.on_mouse(click(card(&hits, 2))));
    assert_eq!(app.view.cards.focused, 2);
    assert!(!app.view.input.focused, "single keys now act on the card");
    assert!(app.on_mouse(click(hits.composer.unwrap())));
    assert!(app.view.input.focused);
    assert!(app.on_mouse(click(card(&hits, 0))));
    assert_eq!(app.view.cards.focused, 0);
}

#[tokio::test(start_paused = true)]
async fn the_wheel_scrolls_the_pane_under_the_pointer() {
    let mut app = finished().await;
    let hits = frame(&app, 80, 24);
    // At 80 columns: tabs, then the focused card (the winner's) below them.
    let (shown, body) = *hits.cards.last().unwrap();
    assert_eq!(shown, app.view.cards.focused);
    let pane = hits.timeline.unwrap();
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollUp, pane)));
    assert_eq!(app.view.timeline.scroll, 3);
    assert_eq!(app.view.cards.scroll, 0, "the card did not move");
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollDown, pane)));
    assert_eq!(app.view.timeline.scroll, 0);
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollUp, body)));
    assert_eq!(app.view.cards.scroll, 3);
    assert_eq!(app.view.cards.focused, shown);
    assert_eq!(app.view.timeline.scroll, 0, "the timeline did not move");
    assert!(
        !app.on_mouse(mouse(MouseEventKind::ScrollUp, hits.composer.unwrap())),
        "nothing to scroll in a short draft"
    );
}

#[tokio::test(start_paused = true)]
async fn with_a_modal_open_the_wheel_scrolls_it_and_clicks_go_nowhere() {
    let mut app = finished().await;
    app.open(ModalKind::Help);
    let hits = frame(&app, 80, 24);
    let area = hits.modal.unwrap();
    assert_eq!(hits.at(area.x + 1, area.y + 1), Some(Hit::Modal));
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollUp, area)));
    assert_eq!(app.view.modals.stack.last().unwrap().scroll, 3);
    let focused = app.view.cards.focused;
    assert!(!app.on_mouse(click(card(&hits, hits.cards[0].0))));
    assert_eq!(app.view.cards.focused, focused);
}

#[tokio::test(start_paused = true)]
async fn a_timeline_row_is_selected_then_opens_its_answer() {
    let mut app = finished().await;
    let (row, entry) = timeline_row(&mut app, |kind| matches!(kind, EntryKind::Answer { .. }));
    assert!(app.on_mouse(click(row)));
    assert_eq!(app.view.timeline.selected, Some(entry));
    assert!(top_modal(&app).is_none(), "one click only selects");
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
        .unwrap();
    let cell = &terminal.backend().buffer()[(row.x + 20, row.y)];
    assert!(
        cell.modifier.contains(Modifier::REVERSED),
        "the selected row is highlighted"
    );
    assert!(app.on_mouse(click(row)));
    let timeline_entry = &app.state.timeline[entry];
    let EntryKind::Answer { label, .. } = &timeline_entry.kind else {
        unreachable!()
    };
    let agent = app
        .state
        .agent_index(timeline_entry.agent.as_ref().unwrap())
        .unwrap();
    let expected = modal::answer_position(&app.state, agent, label).unwrap();
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::Answers { selected: expected })
    );
}

#[tokio::test(start_paused = true)]
async fn enter_on_a_selected_vote_row_opens_the_votes() {
    let mut app = finished().await;
    let (row, _) = timeline_row(&mut app, |kind| matches!(kind, EntryKind::Vote { .. }));
    assert!(app.on_mouse(click(row)));
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::Votes));
}

#[tokio::test(start_paused = true)]
async fn at_80_columns_a_click_on_a_tab_focuses_its_agent() {
    let mut app = finished().await;
    let hits = frame(&app, 80, 24);
    // The tab bar's three tabs, then the card shown under them.
    let tabs: Vec<usize> = hits.cards.iter().map(|(index, _)| *index).collect();
    assert_eq!(tabs[..3], [0, 1, 2]);
    let (_, third) = hits.cards[2];
    assert_eq!(third.height, 1, "a tab is one row");
    assert!(app.on_mouse(click(third)));
    assert_eq!(app.view.cards.focused, 2);
    let hits = frame(&app, 80, 24);
    let (shown, _) = hits.cards[3];
    assert_eq!(shown, 2, "the card shown is the clicked tab's");
}

#[tokio::test(start_paused = true)]
async fn the_wheel_scrolls_the_final_view_under_the_pointer() {
    let mut app = finished().await;
    app.view.final_view.shown = true;
    let hits = frame(&app, 40, 12);
    let body = hits.final_view.expect("the final view is drawn");
    assert!(hits.cards.is_empty(), "no card is drawn under it");
    assert!(
        app.view.final_view.scroll_max.get() > 0,
        "the answer is longer than 40×12"
    );
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollDown, body)));
    assert_eq!(app.view.final_view.scroll, 3);
    assert!(app.on_mouse(mouse(MouseEventKind::ScrollUp, body)));
    assert_eq!(app.view.final_view.scroll, 0);
    assert!(
        !app.on_mouse(click(body)),
        "a click on the answer does nothing"
    );
}
