//! The composer: grapheme-cluster editing, wrapping by display width, growth up to its
//! limit, and scrolling that keeps the cursor in view.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::widgets::Widget;

use super::edit::Draft;
use super::layout::Layout;
use super::{Composer, ComposerKey, Placeholder};
use crate::tui::theme::Theme;

const FLAG: &str = "🇫🇷";
const FAMILY: &str = "👨\u{200d}👩\u{200d}👧";
const E_ACUTE: &str = "e\u{301}";

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn typed(text: &str) -> Composer {
    let mut composer = Composer::default();
    composer.insert(text);
    composer
}

/// Draws `composer` in a `width` × `height` box; returns each row's text and the cells
/// drawn reversed (the cursor).
fn draw(composer: &Composer, width: u16, height: u16) -> (Vec<String>, Vec<(u16, u16)>) {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    composer
        .widget(true, Placeholder::Ask, &Theme::default())
        .render(area, &mut buf);
    let mut rows = Vec::new();
    let mut cursor = Vec::new();
    for y in 1..height - 1 {
        let mut row = String::new();
        let mut skip = 0;
        for x in 1..width - 1 {
            let cell = &buf[(x, y)];
            if cell.modifier.contains(Modifier::REVERSED) {
                cursor.push((x - 1, y - 1));
            }
            if skip > 0 {
                skip -= 1;
                continue;
            }
            row.push_str(cell.symbol());
            skip = super::layout::cluster_width(cell.symbol()).saturating_sub(1);
        }
        rows.push(row.trim_end().to_string());
    }
    (rows, cursor)
}

#[test]
fn left_and_right_step_over_whole_clusters() {
    let text = format!("a{FLAG}{FAMILY}{E_ACUTE}b");
    let mut draft = Draft::default();
    draft.insert(&text);
    let mut stops = vec![draft.cursor()];
    while draft.left() {
        stops.push(draft.cursor());
    }
    let boundaries = |at: &usize| text.is_char_boundary(*at);
    assert!(stops.iter().all(boundaries));
    // a, flag, family, é, b: five clusters, six stops.
    assert_eq!(stops.len(), 6, "{stops:?}");
    let mut forward = vec![draft.cursor()];
    while draft.right() {
        forward.push(draft.cursor());
    }
    forward.reverse();
    assert_eq!(forward, stops);
}

#[test]
fn backspace_and_delete_remove_whole_clusters() {
    for cluster in [FLAG, FAMILY, E_ACUTE, "漢"] {
        let mut draft = Draft::default();
        draft.insert(&format!("x{cluster}y"));
        draft.left();
        assert!(draft.backspace());
        assert_eq!(draft.text(), "xy", "backspace over {cluster:?}");
        let mut draft = Draft::default();
        draft.insert(&format!("x{cluster}y"));
        draft.home();
        draft.right();
        assert!(draft.delete());
        assert_eq!(draft.text(), "xy", "delete of {cluster:?}");
    }
}

#[test]
fn typing_a_combining_mark_joins_the_cluster_before_it() {
    let mut draft = Draft::default();
    draft.insert("e");
    draft.insert("\u{301}");
    assert!(draft.backspace());
    assert_eq!(draft.text(), "");
}

#[test]
fn words_lines_and_undo() {
    let mut draft = Draft::default();
    draft.insert("hello big world");
    assert!(draft.delete_word_left());
    assert_eq!(draft.text(), "hello big ");
    draft.word_left();
    assert_eq!(draft.cursor(), 6);
    assert!(draft.kill_to_end());
    assert_eq!(draft.text(), "hello ");
    assert!(draft.undo());
    assert_eq!(draft.text(), "hello big ");
    assert!(draft.undo());
    assert_eq!(draft.text(), "hello big world");
    assert!(draft.redo());
    assert_eq!(draft.text(), "hello big ");
    draft.end();
    draft.insert("\nnext");
    assert!(draft.kill_to_start());
    assert_eq!(draft.text(), "hello big \n");
}

#[test]
fn keys_edit_and_unknown_keys_are_left_to_the_app() {
    let mut composer = Composer::default();
    assert_eq!(composer.key(key(KeyCode::Char('a'))), ComposerKey::Edited);
    let alt_enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT);
    assert_eq!(composer.key(alt_enter), ComposerKey::Edited);
    assert_eq!(composer.text(), "a\n");
    assert_eq!(composer.key(key(KeyCode::Enter)), ComposerKey::Submit);
    assert_eq!(composer.key(key(KeyCode::F(5))), ComposerKey::Unused);
    let ctrl = |code| KeyEvent::new(code, KeyModifiers::CONTROL);
    assert_eq!(composer.key(ctrl(KeyCode::Home)), ComposerKey::Edited);
    composer.key(key(KeyCode::Char('b')));
    assert_eq!(composer.key(ctrl(KeyCode::End)), ComposerKey::Edited);
    composer.key(key(KeyCode::Char('c')));
    assert_eq!(composer.text(), "ba\nc");
    assert_eq!(composer.key(ctrl(KeyCode::Char('z'))), ComposerKey::Edited);
    assert_eq!(composer.text(), "ba\n");
    assert_eq!(composer.key(key(KeyCode::Esc)), ComposerKey::Unused);
}

#[test]
fn rows_wrap_at_spaces_by_display_width() {
    let text = "漢字漢字 abc";
    // 漢字漢字 is 8 cells: at 9 the space still fits, the word moves down.
    let layout = Layout::new(text, text.len(), 9);
    let rows: Vec<&str> = layout.rows.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(rows, ["漢字漢字 ", "abc"]);
    assert_eq!((layout.cursor_row, layout.cursor_col), (1, 3));
    // A word longer than the row breaks between clusters, never inside one.
    let flags = FLAG.repeat(5);
    let layout = Layout::new(&flags, 0, 5);
    let rows: Vec<&str> = layout.rows.iter().map(|r| &flags[r.clone()]).collect();
    assert_eq!(rows, [FLAG.repeat(2), FLAG.repeat(2), FLAG.to_string()]);
}

#[test]
fn the_cursor_cell_follows_display_width() {
    let composer = typed(&format!("漢{FLAG}{FAMILY}x"));
    let (rows, cursor) = draw(&composer, 20, 3);
    assert_eq!(rows, [format!("漢{FLAG}{FAMILY}x")]);
    // 漢 2 + flag 2 + the family's three parts 6 + x 1: the cursor after them is in
    // column 11.
    assert_eq!(cursor, [(11, 0)]);
    let mut composer = composer;
    composer.key(key(KeyCode::Left));
    composer.key(key(KeyCode::Left));
    let (rows, cursor) = draw(&composer, 20, 3);
    assert_eq!(rows, [format!("漢{FLAG}{FAMILY}x")], "no ghost cells");
    // On the family: each of its parts is drawn reversed (a wide cell's first column
    // carries the style).
    assert_eq!(cursor, [(4, 0), (6, 0), (8, 0)]);
    composer.key(key(KeyCode::Left));
    let (_, cursor) = draw(&composer, 20, 3);
    assert_eq!(cursor, [(2, 0)], "on the flag");
}

#[test]
fn the_composer_grows_with_its_rows_up_to_its_limit() {
    let mut composer = Composer::default();
    assert_eq!(composer.height(80, 24), 3);
    composer.insert(&"word ".repeat(30));
    // 150 cells in 78 columns: two rows.
    assert_eq!(composer.height(80, 24), 4);
    composer.insert(&"word ".repeat(200));
    // Eight rows at most; a third of a 24-row screen leaves six.
    assert_eq!(composer.height(80, 48), 8 + 2);
    assert_eq!(composer.height(80, 24), 6 + 2);
    assert_eq!(composer.height(40, 12), 2 + 2);
    assert_eq!(composer.height(40, 3), 1 + 2);
}

#[test]
fn a_long_draft_scrolls_to_keep_the_cursor_in_view() {
    let text: String = (1..=12).map(|n| format!("line {n}\n")).collect();
    let mut composer = typed(text.trim_end());
    let (rows, cursor) = draw(&composer, 20, 5);
    assert_eq!(rows, ["line 10", "line 11", "line 12"]);
    assert_eq!(cursor, [(7, 2)]);
    for _ in 0..5 {
        composer.key(key(KeyCode::Up));
    }
    let (rows, cursor) = draw(&composer, 20, 5);
    assert_eq!(rows, ["line 7", "line 8", "line 9"]);
    assert_eq!(cursor, [(6, 0)], "the column is kept where it fits");
    composer.key(key(KeyCode::Down));
    let (rows, _) = draw(&composer, 20, 5);
    assert_eq!(rows[0], "line 7", "moving inside the view does not scroll");
}

#[test]
fn up_and_down_move_between_wrapped_rows_of_one_line() {
    // Three rows of "abcd abcd " at 10 columns, the cursor alone on a fourth.
    let mut composer = typed(&"abcd ".repeat(6));
    draw(&composer, 12, 6);
    assert!(!composer.on_first_row());
    for _ in 0..3 {
        assert_eq!(composer.key(key(KeyCode::Up)), ComposerKey::Edited);
    }
    assert!(composer.on_first_row());
    assert_eq!(composer.key(key(KeyCode::Up)), ComposerKey::Unused);
}

#[test]
fn a_full_row_puts_the_cursor_on_the_next_row() {
    let composer = typed("abcdefghij");
    let (rows, cursor) = draw(&composer, 12, 4);
    assert_eq!(rows, ["abcdefghij", ""]);
    assert_eq!(cursor, [(0, 1)]);
}

#[test]
fn the_placeholder_shows_whole_parts_and_says_what_enter_does() {
    assert_eq!(
        Placeholder::Ask.text(200),
        "Ask a question · Enter to submit · Alt+Enter for a newline · /help for help"
    );
    assert_eq!(
        Placeholder::Ask.text(40),
        "Ask a question · Enter to submit"
    );
    assert_eq!(
        Placeholder::Steer.text(77),
        "Enter sends your text to the agents"
    );
    assert_eq!(
        Placeholder::Steer.text(78),
        "Enter sends your text to the agents · they read it with their next tool result"
    );
    assert_eq!(Placeholder::Steer.text(10), "Enter sen…");
}
