//! Every key hint on screen works where it is shown: for each focus (typing, the body, a
//! modal; a turn running or done; the final view or the cards; Planning), the hints are read
//! off the drawn screen, each hinted key is pressed, and it must do something without typing
//! into the composer. The cursor shows only while typing; closing a view leaves nothing typed.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

use super::tests::{agents, key, start_turn, type_text};
use super::*;
use crate::protocol::{AgentId, AnswerLabel, EventMsg, FinalAnswerStrategy, Mode, TurnOutcome};
use crate::tui::test_support::event;

const WIDTH: u16 = 160;
const HEIGHT: u16 = 40;

/// An answer longer than the final view, so that its scroll keys move it.
fn long_answer() -> String {
    (1..=80).map(|line| format!("line {line}\n\n")).collect()
}

/// A turn `c` won and presented a long answer in, ended: the final view shows it and the
/// composer has focus, as after every turn.
fn after_a_turn() -> App {
    let mut app = App::new(agents());
    start_turn(&mut app);
    let label: AnswerLabel = serde_json::from_value(serde_json::json!("agent3.final")).unwrap();
    app.on_event(&event(
        2,
        Some("c"),
        EventMsg::FinalPresentationStarted {
            label: label.clone(),
            strategy: FinalAnswerStrategy::WinnerPresent,
        },
    ));
    app.on_event(&event(
        3,
        Some("c"),
        EventMsg::FinalPresentationDone {
            label,
            content: long_answer(),
            fallback: false,
        },
    ));
    app.on_event(&event(
        4,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: Some(AgentId::new("c")),
            duration_ms: 10,
        },
    ));
    assert!(app.view.final_view.shown && app.view.input.focused);
    app
}

fn pressed(mut app: App, keys: &[KeyEvent]) -> App {
    for key in keys {
        app.on_key(*key);
    }
    app.view.notice = None;
    app
}

/// Each state a user meets, and how they got there.
fn states() -> Vec<(&'static str, App)> {
    let done = after_a_turn();
    let esc = key(KeyCode::Esc);
    let mut running = App::new(agents());
    start_turn(&mut running);
    let mut typed = done.clone();
    type_text(&mut typed, "and Lyon?");
    let mut completing = done.clone();
    type_text(&mut completing, "/hel");
    assert!(completing.view.input.popup.is_some());
    let mut planning = done.clone();
    planning.next.mode = Mode::Planning;
    let welcome = App::new(agents());
    let mut replay = done.clone();
    replay.state.replay = Some(crate::tui::state::ReplayState {
        source: "session_1/turn_1/events.jsonl".into(),
        speed: 1.0,
        step: false,
        finished: true,
        clock: jiff::Timestamp::UNIX_EPOCH,
    });
    vec![
        ("welcome, typing", welcome.clone()),
        ("welcome, keys", pressed(welcome, &[esc])),
        ("a finished replay, typing", replay.clone()),
        ("a finished replay, keys", pressed(replay, &[esc])),
        ("typing after a turn (final view)", done.clone()),
        ("typing a question after a turn", typed),
        ("typing a command (completion open)", completing),
        ("body: final view", pressed(done.clone(), &[esc])),
        (
            "body: cards",
            pressed(done.clone(), &[esc, key(KeyCode::Char('f'))]),
        ),
        (
            "modal opened from the body",
            pressed(done.clone(), &[esc, key(KeyCode::Char('v'))]),
        ),
        (
            "modal opened while typing",
            pressed(done.clone(), &[key(KeyCode::Char('?'))]),
        ),
        ("typing during a turn", running.clone()),
        ("body during a turn", pressed(running, &[esc])),
        ("typing in Planning", planning.clone()),
        ("body in Planning", pressed(planning, &[esc])),
    ]
}

fn screen(app: &App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    terminal
        .draw(|frame| {
            crate::tui::frame::render(&app.state, &app.view, &app.next, &app.theme, frame)
        })
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..HEIGHT)
        .map(|y| (0..WIDTH).map(|x| buffer[(x, y)].symbol()).collect())
        .collect()
}

/// The rows that carry key hints: the status bar, the mode bar's tail, the final view's
/// footer and the planning options button, each as the text of its hints.
fn hint_rows(rows: &[String]) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    let status = rows[rows.len() - 1].trim_end();
    let start = status.rfind("  ").map_or(0, |at| at + 2);
    found.push(("status bar", status[start..].to_string()));
    for row in rows {
        if let Some(at) = row.find("Shift+Tab mode") {
            found.push(("mode bar", row[at..].trim_end().to_string()));
        }
        if let Some(at) = row.find('⋮') {
            let button = row[at + '⋮'.len_utf8()..].split("  ").next().unwrap_or("");
            found.push(("options button", button.trim().to_string()));
        }
        let trimmed = row.trim_end();
        if trimmed.starts_with('╰') && (trimmed.contains("scroll") || trimmed.contains("f cards"))
        {
            let inner = trimmed.trim_end_matches('╯').trim_end_matches('│');
            let footer = inner.rsplit("──").next().unwrap_or("").trim();
            found.push(("final view footer", footer.to_string()));
        }
    }
    found
}

fn ctrl(letter: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL)
}

/// The keys a hint's key name stands for (each is pressed alone); `None` for a name this
/// table does not know, which fails the test: a new hint needs a row here.
fn keys_named(name: &str) -> Option<Vec<KeyEvent>> {
    let keys = match name {
        "Esc" => vec![key(KeyCode::Esc)],
        "Enter" => vec![key(KeyCode::Enter)],
        "Tab" => vec![key(KeyCode::Tab)],
        "Shift+Tab" => vec![KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)],
        "Ctrl+C" => vec![ctrl('c')],
        "Ctrl+G" => vec![ctrl('g')],
        // From the answer's top, down is the way that moves.
        "↑↓" => vec![key(KeyCode::Down)],
        "PgUp/PgDn" => vec![key(KeyCode::PageDown)],
        single if single.chars().count() == 1 => {
            vec![key(KeyCode::Char(single.chars().next()?))]
        }
        _ => return None,
    };
    Some(keys)
}

/// Each hint of a row as (keys pressed first, the hinted key): a hint after `Esc → ` needs
/// Esc first, as do the ones after it in the row.
fn hinted_keys(row: &str) -> Vec<(String, Vec<KeyEvent>, KeyEvent)> {
    let mut lead = Vec::new();
    let mut keys = Vec::new();
    for hint in row.split(" · ") {
        let mut hint = hint.trim();
        // A note, and a command to type (typing is what it asks for), name no key.
        if hint == "replay: nothing is sent" || hint.starts_with("/quit") {
            continue;
        }
        if let Some(rest) = hint.strip_prefix("Esc → ") {
            lead = vec![key(KeyCode::Esc)];
            hint = rest;
        }
        let name = hint
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(':');
        let Some(named) = keys_named(name) else {
            panic!("{hint:?} in {row:?} names no key this test knows");
        };
        for pressed in named {
            keys.push((hint.to_string(), lead.clone(), pressed));
        }
    }
    keys
}

#[test]
fn every_hinted_key_does_what_it_says_and_none_types_into_the_composer() {
    for (state, app) in states() {
        let rows = screen(&app);
        let hints = hint_rows(&rows);
        assert!(
            hints.iter().any(|(place, _)| *place == "status bar"),
            "{state}"
        );
        for (place, row) in hints {
            for (hint, lead, hinted) in hinted_keys(&row) {
                let mut app = pressed(app.clone(), &lead);
                let text = app.view.input.composer.text();
                let before = format!("{app:?}");
                let effects = app.on_key(hinted);
                let after = app.view.input.composer.text();
                let context = format!("{state}: {place} {row:?}: {hint:?}");
                if hinted.code == KeyCode::Char('/') {
                    assert_eq!(after, "/", "{context} starts a command");
                } else if hinted.code == KeyCode::Tab {
                    assert!(after.starts_with(&text), "{context} completes {text:?}");
                } else {
                    // Enter sends what is typed and Ctrl+C clears it: nothing is added.
                    assert!(
                        after == text || after.is_empty(),
                        "{context} typed into the composer: {after:?}"
                    );
                }
                assert!(
                    !effects.is_empty() || format!("{app:?}") != before,
                    "{context} does nothing"
                );
            }
        }
    }
}

#[test]
fn the_hints_each_focus_shows() {
    let shown: String = states()
        .into_iter()
        .map(|(state, app)| {
            let rows = screen(&app);
            let hints: String = hint_rows(&rows)
                .into_iter()
                .map(|(place, row)| format!("  {place}: {row}\n"))
                .collect();
            format!("{state}\n{hints}")
        })
        .collect();
    assert_snapshot!("hints_per_focus", shown);
}

/// The composer's rows that are drawn reversed: its cursor.
fn cursor_cells(app: &App) -> usize {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    terminal
        .draw(|frame| {
            crate::tui::frame::render(&app.state, &app.view, &app.next, &app.theme, frame)
        })
        .unwrap();
    let area = app.view.hits.borrow().composer.unwrap();
    let buffer = terminal.backend().buffer();
    (area.top()..area.bottom())
        .flat_map(|y| (area.left()..area.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        .count()
}

#[test]
fn the_cursor_shows_only_while_typing() {
    let typing = after_a_turn();
    assert_eq!(cursor_cells(&typing), 1, "typing: one cursor cell");
    let mut typed = typing.clone();
    type_text(&mut typed, "and Lyon?");
    assert_eq!(cursor_cells(&typed), 1);
    let mut body = typed;
    body.on_key(key(KeyCode::Esc));
    assert_eq!(cursor_cells(&body), 0, "keys are commands: no cursor");
    assert_eq!(cursor_cells(&pressed(typing, &[key(KeyCode::Esc)])), 0);
}

#[test]
fn the_welcome_view_says_how_to_ask_from_where_the_keys_go() {
    let typing = App::new(agents());
    assert!(
        screen(&typing)
            .iter()
            .any(|row| row.contains("Type a question below and press Enter.")),
        "{:#?}",
        screen(&typing)
    );
    let mut body = pressed(typing, &[key(KeyCode::Esc)]);
    let rows = screen(&body);
    assert!(
        rows.iter()
            .any(|row| row.contains("Press i to type a question below, then Enter.")),
        "{rows:#?}"
    );
    body.on_key(key(KeyCode::Char('i')));
    assert!(body.view.input.focused, "i goes back to typing");
    assert_eq!(body.view.input.composer.text(), "", "and types nothing");
}

#[test]
fn closing_a_view_leaves_nothing_typed_and_the_focus_where_it_was() {
    // Opened from the body: Esc closes it, the hinted `i` goes back to typing.
    let mut app = pressed(
        after_a_turn(),
        &[key(KeyCode::Esc), key(KeyCode::Char('v'))],
    );
    app.on_key(key(KeyCode::Esc));
    assert!(app.view.modals.is_empty() && !app.view.input.focused);
    let status = screen(&app).pop().unwrap();
    assert!(status.contains("i: type"), "{status}");
    app.on_key(key(KeyCode::Char('i')));
    assert!(app.view.input.focused);
    assert_eq!(app.view.input.composer.text(), "");
    // Opened while typing: the status bar says Esc goes back to typing, and then shows no `i`.
    let mut app = pressed(after_a_turn(), &[key(KeyCode::Char('?'))]);
    let status = screen(&app).pop().unwrap();
    assert!(status.contains("Esc: close, back to typing"), "{status}");
    app.on_key(key(KeyCode::Esc));
    let rows = screen(&app);
    assert!(
        rows.iter().all(|row| !row.contains("i: type")),
        "typing: no `i` hinted\n{}",
        rows.join("\n")
    );
    assert_eq!(app.view.input.composer.text(), "");
}

#[test]
fn page_keys_scroll_the_final_view_while_typing() {
    let mut app = after_a_turn();
    screen(&app);
    app.on_key(key(KeyCode::PageDown));
    assert_eq!(app.view.final_view.scroll, 10);
    app.on_key(key(KeyCode::PageUp));
    assert_eq!(app.view.final_view.scroll, 0);
    assert!(app.view.input.focused && app.view.input.composer.is_empty());
}

#[test]
fn a_step_by_step_replay_says_how_to_reach_n_while_typing() {
    let mut app = after_a_turn();
    app.state.replay = Some(crate::tui::state::ReplayState {
        source: "session_1/turn_1/events.jsonl".into(),
        speed: 1.0,
        step: true,
        finished: false,
        clock: jiff::Timestamp::UNIX_EPOCH,
    });
    let bar = |app: &App| {
        screen(app)
            .into_iter()
            .find(|row| row.contains("▶ Replay"))
            .unwrap()
    };
    assert!(
        bar(&app).contains("step by step (Esc → n: next)"),
        "{}",
        bar(&app)
    );
    app.on_key(key(KeyCode::Esc));
    assert!(
        bar(&app).contains("step by step (n: next)"),
        "{}",
        bar(&app)
    );
}
