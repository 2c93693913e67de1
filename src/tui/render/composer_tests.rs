//! The composer on a whole screen: a long draft grows the composer up to its limit (a third
//! of the screen, at most eight rows), and past it the rows around the cursor are shown.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;

use super::tests::{FRANCE, draw, view};
use crate::tui::test_support::{demo_turns, fold};
use crate::tui::view::View;

const DRAFT: &str = "Compare the three answers above and tell me which one explains \
the history of Paris best, then list what each of them left out, with the sources they \
cite, and finally suggest a follow-up question 🇫🇷 that would settle it.";

/// A view whose composer holds `text`, the cursor moved by `keys`.
fn with_draft(text: &str, keys: &[KeyCode]) -> View {
    let mut view = view();
    view.input.focused = true;
    view.input.composer.insert(text);
    for code in keys {
        view.input
            .composer
            .key(KeyEvent::new(*code, KeyModifiers::NONE));
    }
    view
}

#[tokio::test(start_paused = true)]
async fn a_long_draft_grows_the_composer() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let view = with_draft(DRAFT, &[]);
    assert_snapshot!("draft_grown_80x24", draw(&state, &view, 80, 24));
    assert_snapshot!("draft_grown_160x48", draw(&state, &view, 160, 48));
    // Two rows fit a third of a 12-row screen.
    let short = with_draft("Which answer cites its sources best? Name them 🇫🇷", &[]);
    assert_snapshot!("draft_grown_40x12", draw(&state, &short, 40, 12));
}

#[tokio::test(start_paused = true)]
async fn a_draft_past_the_limit_scrolls_to_the_cursor() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let long = format!("1. {DRAFT}\n2. {DRAFT}\n3. {DRAFT}");
    let end = with_draft(&long, &[]);
    let small = draw(&state, &end, 40, 12);
    assert_snapshot!("draft_scrolled_end_80x24", draw(&state, &end, 80, 24));
    // At 160×48 the three paragraphs fit in the composer's eight rows.
    assert_snapshot!("draft_scrolled_end_160x48", draw(&state, &end, 160, 48));
    assert_snapshot!("draft_scrolled_end_40x12", small);
    // Up from the end: the view follows the cursor to the draft's top.
    let mut top = end;
    for _ in 0..40 {
        top.input
            .composer
            .key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
        draw(&state, &top, 80, 24);
    }
    assert_snapshot!("draft_scrolled_top_80x24", draw(&state, &top, 80, 24));
}
