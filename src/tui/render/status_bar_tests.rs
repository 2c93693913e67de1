//! The status bar fits its width by dropping whole pieces, least important first: at 80,
//! 100 and 160 columns no hint is cut, and help and quit (or cancel) are always shown.

use super::*;
use crate::tui::render::tests::{FRANCE, draw, view};
use crate::tui::state::ReplayState;
use crate::tui::test_support::{demo_turns, demo_until, first_answer, fold, run_started};

/// Every hint any screen may show.
const HINTS: [&str; 28] = [
    "Tab: complete",
    "Esc: close the list",
    "?: help",
    "q: quit",
    "/quit",
    "Ctrl+C: quit",
    "Ctrl+C: clear",
    "Esc: close",
    "Esc: close, back to typing",
    "Ctrl+C: cancel",
    "Ctrl+G: answer now",
    "Enter: ask",
    "Enter: send to the agents",
    "/ commands",
    "Esc: shortcuts",
    "f: cards",
    "f: final answer",
    "y: copy",
    "↑↓ scroll",
    "i: type",
    "v votes",
    "C map",
    "c costs",
    "t timeline",
    "n: next step",
    "replay: nothing is sent",
    "g: all cards",
    "g: one card",
];

/// The bottom row of a `width`-column screen.
fn status_row(state: &UiState, view: &View, width: u16) -> String {
    let backend = draw(state, view, width, 24);
    let buffer = backend.buffer();
    (0..width)
        .map(|x| buffer[(x, 23)].symbol().to_string())
        .collect()
}

/// The hints of a status row: what follows the last run of two or more spaces.
fn hints_of(row: &str) -> Vec<String> {
    let trimmed = row.trim_end();
    let start = trimmed.rfind("  ").map_or(0, |at| at + 2);
    trimmed[start..]
        .split(" · ")
        .map(|hint| hint.trim().to_string())
        .collect()
}

/// Screens in every kind of hint list: welcome, a turn running (composer in and out), the
/// finished turn, its final view and a replay.
async fn screens() -> Vec<(&'static str, UiState, View, &'static str)> {
    let welcome = demo_until("q", run_started).await;
    let running = demo_until(FRANCE, first_answer).await;
    let done = fold(&demo_turns(&[FRANCE]).await);
    let mut replay = done.clone();
    replay.replay = Some(ReplayState {
        source: "session_1/turn_1/events.jsonl".into(),
        speed: 1.0,
        step: false,
        finished: true,
        clock: jiff::Timestamp::UNIX_EPOCH,
    });
    let mut typing = view();
    typing.input.focused = true;
    let mut final_view = view();
    final_view.final_view.shown = true;
    vec![
        ("welcome", welcome, typing.clone(), "Ctrl+C: quit"),
        (
            "typing mid-turn",
            running.clone(),
            typing.clone(),
            "Ctrl+C: cancel",
        ),
        ("keys mid-turn", running, view(), "Ctrl+C: cancel"),
        ("turn done", done.clone(), view(), "q: quit"),
        ("final view", done, final_view, "q: quit"),
        ("replay", replay.clone(), view(), "q: quit"),
        ("typing in a replay", replay, typing, "/quit"),
    ]
}

#[tokio::test(start_paused = true)]
async fn no_hint_is_cut_and_help_and_quit_always_show() {
    for (name, state, view, quit) in screens().await {
        for width in [80, 100, 160] {
            let row = status_row(&state, &view, width);
            assert!(!row.contains('…'), "{name} at {width}: {row:?}");
            let hints = hints_of(&row);
            assert!(
                hints.iter().any(|hint| hint == "?: help"),
                "{name} at {width}: {row:?}"
            );
            assert_eq!(
                hints.last().map(String::as_str),
                Some(quit),
                "{name} at {width}: {row:?}"
            );
            for hint in &hints {
                assert!(
                    HINTS.iter().any(|whole| hint.ends_with(whole)),
                    "{name} at {width}: {hint:?} is a whole hint in {row:?}"
                );
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_wider_bar_shows_more_hints() {
    for (name, state, view, _) in screens().await {
        let count = |width| hints_of(&status_row(&state, &view, width)).len();
        assert!(count(80) <= count(100), "{name}");
        assert!(count(100) <= count(160), "{name}");
    }
    let state = demo_until(FRANCE, first_answer).await;
    let mut typing = view();
    typing.input.focused = true;
    // Enter sends only what is typed.
    typing.input.composer.insert("use sources");
    let wide = status_row(&state, &typing, 160);
    assert!(wide.contains("Enter: send to the agents"), "{wide:?}");
    assert!(wide.contains("3 agents | 1 answer"), "{wide:?}");
    let narrow = status_row(&state, &typing, 80);
    assert!(
        narrow.contains("1 answer | 0/3 votes") && !narrow.contains("3 agents"),
        "the shorter progress first: {narrow:?}"
    );
}

#[test]
fn pieces_go_highest_first_and_the_rightmost_of_equals_first() {
    let left = vec![piece("Idle", KEEP), piece("long progress", 2)];
    let right = vec![
        piece("a: one", 3),
        piece("b: two", 3),
        piece("?: help", KEEP),
        piece("q: quit", KEEP),
    ];
    let all = fit(left.clone(), right.clone(), 200);
    assert_eq!(all.1, "a: one · b: two · ?: help · q: quit ");
    let width = |texts: &(String, String)| {
        u16::try_from(display_width(&texts.0) + 2 + display_width(&texts.1)).unwrap()
    };
    let fewer = fit(left.clone(), right.clone(), width(&all) - 1);
    assert_eq!(fewer.1, "a: one · ?: help · q: quit ", "b went first");
    let fewest = fit(left.clone(), right.clone(), 10);
    assert_eq!(fewest, (" Idle".into(), "?: help · q: quit ".into()));
}

#[test]
fn a_piece_with_a_shorter_form_shrinks_before_it_goes() {
    let left = vec![
        piece("Idle", KEEP),
        Piece {
            text: "3 agents | 1 answer".into(),
            drop: 5,
            shorter: Some(("1 answer".into(), 1)),
        },
    ];
    let right = vec![piece("i: type", 3), piece("?: help", KEEP)];
    assert_eq!(
        fit(left.clone(), right.clone(), 50).0,
        " Idle  3 agents | 1 answer"
    );
    assert_eq!(
        fit(left.clone(), right.clone(), 35),
        (" Idle  1 answer".into(), "i: type · ?: help ".into())
    );
    assert_eq!(fit(left, right, 22), (" Idle".into(), "?: help ".into()));
}

#[tokio::test(start_paused = true)]
async fn while_a_turn_runs_the_empty_composer_says_enter_sends_to_the_agents() {
    let idle = demo_until("q", run_started).await;
    let running = demo_until(FRANCE, first_answer).await;
    let mut typing = view();
    typing.input.focused = true;
    let screen =
        |state: &UiState| crate::tui::render::tests::screen_text(&draw(state, &typing, 80, 24));
    assert!(screen(&idle).contains("│ Ask a question · Enter to submit"));
    let steer = screen(&running);
    assert!(
        steer.contains("│ Enter sends your text to the agents"),
        "{steer}"
    );
    assert!(!steer.contains("Ask a question"), "{steer}");
}
