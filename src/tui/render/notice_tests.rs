//! A long notice is readable in full at every size: wrapped above the mode bar, or above a
//! replay's bar, on as many lines as it needs up to a third of the screen.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;

use super::notice;
use super::tests::{FRANCE, both_sizes, draw, tiny_size, view};
use super::wrap::display_width;
use crate::protocol::EventMsg;
use crate::tui::app::App;
use crate::tui::state::UiState;
use crate::tui::test_support::{demo_turns, event};
use crate::tui::view::View;

/// The notice `y` leaves over a finished demo turn, with the final view it looks at.
async fn copied() -> (UiState, View) {
    let mut app = App::new(Vec::new());
    for event in demo_turns(&[FRANCE]).await {
        app.on_event(&event);
    }
    for code in [KeyCode::Esc, KeyCode::Char('y')] {
        app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
    }
    let notice = app.view.notice.clone();
    assert!(
        notice.as_deref().is_some_and(|text| text.len() > 100),
        "a long notice: {notice:?}"
    );
    let mut view = view();
    view.notice = notice;
    view.final_view.shown = app.view.final_view.shown;
    (app.state, view)
}

/// The words of the screen's rows, in reading order.
fn words(backend: &TestBackend) -> Vec<String> {
    let buffer = backend.buffer();
    (0..buffer.area.height)
        .flat_map(|y| {
            let row: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            row.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every word of `notice` is on screen, in order and uncut.
fn shows_whole(backend: &TestBackend, notice: &str) -> bool {
    let wanted: Vec<&str> = notice.split_whitespace().collect();
    words(backend)
        .windows(wanted.len())
        .any(|shown| shown.iter().map(String::as_str).eq(wanted.iter().copied()))
}

#[tokio::test(start_paused = true)]
async fn a_long_notice_is_wrapped_whole_at_every_size() {
    let (state, view) = copied().await;
    let notice = view.notice.clone().unwrap();
    for (width, height) in [(40, 12), (60, 16), (80, 24), (160, 48)] {
        let screen = draw(&state, &view, width, height);
        assert!(
            shows_whole(&screen, &notice),
            "{notice} at {width}x{height}:\n{screen:?}"
        );
    }
    both_sizes("notice_copied", &state, &view);
    tiny_size("notice_copied", &state, &view);
}

#[test]
fn a_notice_longer_than_a_third_of_the_screen_is_cut_on_its_last_line() {
    let words: Vec<String> = (1..=40).map(|n| format!("word{n}")).collect();
    let notice = words.join(" ");
    let lines = notice::wrapped(&notice, 40, notice::most_lines(12));
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[3].ends_with('…'), "{lines:?}");
    for line in &lines {
        assert!(
            display_width(line) <= 39,
            "one column goes to the indent: {line}"
        );
    }
    assert_eq!(notice::most_lines(10), 3);
    assert_eq!(
        notice::most_lines(5),
        2,
        "two lines however short the screen"
    );
}

#[test]
fn a_replays_notice_wraps_above_its_bar() {
    let mut state = UiState::default();
    state.apply(&event(
        1,
        None,
        EventMsg::ReplayStarted {
            source: "/home/user/project/.massgen/sessions/session_20260101_120000".into(),
            speed: 10.0,
            step: false,
        },
    ));
    let notice = "this is a replay: nothing is sent to a model, so its plan mode, agents and \
                  refinement stay as they were recorded";
    let view = View {
        notice: Some(notice.into()),
        ..view()
    };
    for (width, height) in [(40, 12), (80, 24)] {
        let screen = draw(&state, &view, width, height);
        assert!(
            shows_whole(&screen, notice),
            "at {width}x{height}:\n{screen:?}"
        );
        let text = format!("{screen:?}");
        assert!(text.contains("▶ Replay · 10× the recorded pace"), "{text}");
    }
    let short = View {
        notice: Some("n: next".into()),
        ..view.clone()
    };
    let text = format!("{:?}", draw(&state, &short, 80, 24));
    let bar = text
        .lines()
        .find(|line| line.contains("▶ Replay"))
        .unwrap_or_default();
    assert!(
        bar.contains("n: next"),
        "a short notice stays beside the bar: {bar}"
    );
}
