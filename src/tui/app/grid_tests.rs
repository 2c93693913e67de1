//! `g` and the grid in the app: the toggle lasts across turns, the final view and resizes;
//! focus keys, clicks and the wheel move between cells.

use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use super::App;
use super::tests::key;
use crate::protocol::{AgentId, AgentInfo, EventMsg, Mode, TurnOutcome};
use crate::tui::frame::render;
use crate::tui::test_support::{event, scripted_turns};
use crate::tui::view::HitMap;

fn roster(count: usize) -> Vec<AgentInfo> {
    AgentInfo::roster((1..=count).map(|n| {
        (
            AgentId::new(format!("agent{n}")),
            "scripted".to_string(),
            "m".to_string(),
        )
    }))
}

/// Six agents with a turn running, single keys on (the composer left).
fn running() -> App {
    let mut app = App::new(roster(6));
    app.on_event(&event(
        1,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "q".into(),
            mode: Mode::Normal,
            agents: roster(6),
            log_dir: None,
        },
    ));
    app.on_key(key(KeyCode::Esc));
    app
}

/// Draws a frame at `width`×`height` and returns where it put things.
fn frame(app: &App, width: u16, height: u16) -> HitMap {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
        .unwrap();
    app.view.hits.borrow().clone()
}

/// Whether the frame shows every card in its own cell (no tab bar).
fn all_cards(hits: &HitMap, count: usize) -> bool {
    hits.cards.len() == count && hits.cards.iter().all(|(_, cell)| cell.height > 1)
}

fn at(kind: MouseEventKind, rect: Rect) -> MouseEvent {
    MouseEvent {
        kind,
        column: rect.x + rect.width / 2,
        row: rect.y + rect.height / 2,
        modifiers: KeyModifiers::NONE,
    }
}

#[test]
fn g_toggles_the_grid_and_the_choice_lasts_across_turns_and_resizes() {
    let mut app = running();
    assert!(all_cards(&frame(&app, 200, 50), 6), "a grid at 200×50");
    app.on_key(key(KeyCode::Char('g')));
    assert!(app.view.cards.single);
    assert!(!all_cards(&frame(&app, 200, 50), 6), "one card and tabs");
    assert!(!all_cards(&frame(&app, 300, 80), 6), "a resize keeps it");
    app.on_event(&event(
        9,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 10,
        },
    ));
    assert!(app.view.cards.single, "kept when the turn ends");
    app.on_event(&event(
        10,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "again".into(),
            mode: Mode::Normal,
            agents: roster(6),
            log_dir: None,
        },
    ));
    assert!(app.view.cards.single, "kept when the next turn starts");
    app.on_key(key(KeyCode::Char('g')));
    assert!(!app.view.cards.single);
    assert!(all_cards(&frame(&app, 200, 50), 6));
    // Too small for the grid: tabs, and `g` says why nothing changed.
    assert!(!all_cards(&frame(&app, 80, 24), 6));
    app.on_key(key(KeyCode::Char('g')));
    app.on_key(key(KeyCode::Char('g')));
    let notice = app.view.notice.clone().unwrap_or_default();
    assert!(notice.contains("40×8"), "{notice}");
    // …and grows back into a grid when the terminal does.
    assert!(all_cards(&frame(&app, 200, 50), 6));
}

#[test]
fn g_from_a_zoomed_card_shows_them_all() {
    let mut app = running();
    app.on_key(key(KeyCode::Char('z')));
    assert!(!all_cards(&frame(&app, 200, 50), 6));
    app.on_key(key(KeyCode::Char('g')));
    assert!(!app.view.cards.maximized && !app.view.cards.single);
    assert!(all_cards(&frame(&app, 200, 50), 6));
}

#[test]
fn the_status_bar_says_what_g_does() {
    let mut app = running();
    let hints = |app: &App| {
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
        terminal
            .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
            .unwrap();
        let buffer = terminal.backend().buffer();
        (0..200)
            .map(|x| buffer[(x, 49)].symbol().to_string())
            .collect::<String>()
    };
    assert!(
        hints(&app).contains("g: one card · ?: help"),
        "{}",
        hints(&app)
    );
    app.on_key(key(KeyCode::Char('g')));
    assert!(hints(&app).contains("g: all cards · ?: help"));
    app.on_key(key(KeyCode::Char('i')));
    assert!(!hints(&app).contains("g: "), "the composer takes `g`");
}

#[test]
fn focus_keys_move_between_cells() {
    let mut app = running();
    let hits = frame(&app, 200, 50);
    assert!(all_cards(&hits, 6));
    let focused_corner = |app: &App| {
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
        terminal
            .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame))
            .unwrap();
        let buffer = terminal.backend().buffer().clone();
        let hits = app.view.hits.borrow().clone();
        hits.cards
            .iter()
            .filter(|(_, cell)| buffer[(cell.x, cell.y)].style().fg == app.theme.accent().fg)
            .map(|(index, _)| *index)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        focused_corner(&app),
        [0],
        "the first cell is framed as focused"
    );
    app.on_key(key(KeyCode::Tab));
    app.on_key(key(KeyCode::Right));
    assert_eq!(app.view.cards.focused, 2);
    assert_eq!(focused_corner(&app), [2]);
    app.on_key(key(KeyCode::Char('6')));
    assert_eq!(app.view.cards.focused, 5);
    app.on_key(key(KeyCode::Right));
    assert_eq!(
        app.view.cards.focused, 0,
        "round from the last cell to the first"
    );
    app.on_key(key(KeyCode::Left));
    assert_eq!(focused_corner(&app), [5]);
    assert!(all_cards(&frame(&app, 200, 50), 6), "still the grid");
}

#[test]
fn clicks_and_the_wheel_move_between_cells() {
    let mut app = running();
    // Every card has more to show than its cell holds.
    let lines: String = (1..=40).map(|n| format!("line {n}\n")).collect();
    for n in 1..=6 {
        let agent = format!("agent{n}");
        app.on_event(&event(
            10 + n,
            Some(&agent),
            EventMsg::TextDelta {
                text: lines.clone(),
            },
        ));
    }
    let hits = frame(&app, 200, 50);
    assert!(all_cards(&hits, 6));
    let cell = |index: usize| {
        hits.cards
            .iter()
            .find(|(shown, _)| *shown == index)
            .unwrap()
            .1
    };
    // Cells of the second row lie below those of the first.
    assert!(cell(4).y > cell(1).y);
    assert!(app.on_mouse(at(MouseEventKind::Down(MouseButton::Left), cell(4))));
    assert_eq!(app.view.cards.focused, 4);
    assert!(app.on_mouse(at(MouseEventKind::ScrollUp, cell(1))));
    assert_eq!(
        app.view.cards.focused, 1,
        "the wheel scrolls the cell under the pointer"
    );
    assert_eq!(app.view.cards.scroll, 3);
    assert!(all_cards(&frame(&app, 200, 50), 6));
}

#[tokio::test(start_paused = true)]
async fn after_a_turn_f_goes_from_the_final_view_back_to_the_grid() {
    let yaml = (1..=6)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend: {{type: scripted, model: m, answer: \"Answer {n}\"}}\n"
            )
        })
        .collect::<String>();
    let mut app = App::new(Vec::new());
    for event in scripted_turns(&format!("agents:\n{yaml}"), &["Six?"]).await {
        app.on_event(&event);
    }
    assert!(
        app.view.final_view.shown,
        "the final view opens when the turn ends"
    );
    let hits = frame(&app, 200, 50);
    assert!(hits.final_view.is_some() && hits.cards.is_empty());
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('f')));
    assert!(all_cards(&frame(&app, 200, 50), 6), "f: back to the grid");
    // With one card chosen, the final view gives way to one card; `g` there shows all.
    app.on_key(key(KeyCode::Char('g')));
    app.on_key(key(KeyCode::Char('f')));
    assert!(app.view.final_view.shown);
    app.on_key(key(KeyCode::Char('f')));
    assert!(!all_cards(&frame(&app, 200, 50), 6));
    app.on_key(key(KeyCode::Char('f')));
    app.on_key(key(KeyCode::Char('g')));
    assert!(!app.view.final_view.shown);
    assert!(
        all_cards(&frame(&app, 200, 50), 6),
        "g from the final view: the grid"
    );
}
