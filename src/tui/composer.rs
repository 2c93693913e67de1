//! The composer: a multi-line text field that grows with its wrapped rows up to a limit,
//! then scrolls to keep the cursor in view. The cursor moves and deletes by grapheme cluster
//! (flags, ZWJ emoji, combining accents) and is drawn over the whole cluster. Enter
//! submits, Alt+Enter (or Shift+Enter where the terminal reports it) starts a new line.

mod edit;
mod layout;
#[cfg(test)]
mod tests;

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Widget};

use self::edit::Draft;
use self::layout::{Layout, cluster_width, drawn, part_width, parts};
use super::render::wrap::truncate;
use super::theme::Theme;
use unicode_segmentation::UnicodeSegmentation;

/// What the empty composer says Enter will do, or how to give it focus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placeholder {
    /// No turn runs: Enter asks a question.
    #[default]
    Ask,
    /// A turn runs: Enter sends the text to its agents.
    Steer,
    /// A recorded run plays: nothing typed is sent.
    Replay,
    /// Keys are commands: `i` or `/` gives the composer focus.
    Unfocused,
}

impl Placeholder {
    /// Its parts, most important first; as many as fit are shown, whole.
    fn parts(self) -> &'static [&'static str] {
        match self {
            Self::Ask => &[
                "Ask a question",
                "Enter to submit",
                "Alt+Enter for a newline",
                "/help for help",
            ],
            Self::Steer => &[
                "Enter sends your text to the agents",
                "they read it with their next tool result",
                "Alt+Enter for a newline",
            ],
            Self::Replay => &["A replay: nothing typed here is sent", "/quit to leave"],
            Self::Unfocused => &["i: type here", "/ starts a command"],
        }
    }

    /// Its leading parts that fit in `width` columns, joined; the first cut if it alone
    /// does not fit.
    pub fn text(self, width: usize) -> String {
        let parts = self.parts();
        let mut shown = parts.first().copied().unwrap_or_default().to_string();
        for part in parts.iter().skip(1) {
            let longer = format!("{shown} · {part}");
            if super::render::wrap::display_width(&longer) > width {
                break;
            }
            shown = longer;
        }
        truncate(&shown, width)
    }
}

/// The most text rows the composer grows to (less on a short screen: a third of it).
pub const MAX_ROWS: u16 = 8;

/// What a key did to the composer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComposerKey {
    /// Enter without modifiers: the text is to be submitted.
    Submit,
    /// The key edited the text or moved the cursor.
    Edited,
    /// The key means nothing to a text area (the caller may use it).
    Unused,
}

#[derive(Clone, Debug)]
pub struct Composer {
    draft: Draft,
    theme: Theme,
    /// The text width the last frame drew at (0 before the first), for Up/Down and rows.
    width: Cell<usize>,
    /// The first text row the last frame showed.
    top: Cell<usize>,
    /// The column Up/Down aim for, kept across a run of vertical moves.
    goal_col: Option<usize>,
}

impl Default for Composer {
    fn default() -> Self {
        Self::new(&Theme::default())
    }
}

impl Composer {
    pub fn new(theme: &Theme) -> Self {
        Self {
            draft: Draft::default(),
            theme: *theme,
            width: Cell::new(0),
            top: Cell::new(0),
            goal_col: None,
        }
    }

    /// Takes the colours of `theme` (after a theme change).
    pub fn restyle(&mut self, theme: &Theme) {
        self.theme = *theme;
    }

    pub fn text(&self) -> String {
        self.draft.text().to_string()
    }

    pub fn is_empty(&self) -> bool {
        self.draft.text().is_empty()
    }

    /// Lines of text (separated by line breaks, not wrapping).
    pub fn line_count(&self) -> usize {
        self.draft.text().split('\n').count()
    }

    /// Empties the composer (undo brings the text back).
    pub fn clear(&mut self) {
        self.draft.set("");
        self.goal_col = None;
    }

    /// Replaces the text, cursor at its end (history recall).
    pub fn set_text(&mut self, text: &str) {
        self.draft.set(text);
        self.goal_col = None;
    }

    /// Inserts pasted text at the cursor, newlines included (many terminals paste line
    /// breaks as a bare carriage return).
    pub fn insert(&mut self, text: &str) {
        self.draft
            .insert(&text.replace("\r\n", "\n").replace('\r', "\n"));
        self.goal_col = None;
    }

    /// The cursor is before the first character or after the last.
    pub fn cursor_at_either_end(&self) -> bool {
        let cursor = self.draft.cursor();
        cursor == 0 || cursor == self.draft.text().len()
    }

    /// The cursor is on the first screen row (Up has nowhere to go in the text).
    pub fn on_first_row(&self) -> bool {
        self.layout().cursor_row == 0
    }

    /// The cursor is on the last screen row.
    pub fn on_last_row(&self) -> bool {
        let layout = self.layout();
        layout.cursor_row + 1 >= layout.rows.len()
    }

    pub fn key(&mut self, key: KeyEvent) -> ComposerKey {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        let vertical = matches!(key.code, KeyCode::Up | KeyCode::Down)
            || (ctrl && matches!(key.code, KeyCode::Char('p' | 'n')));
        if !vertical {
            self.goal_col = None;
        }
        let draft = &mut self.draft;
        let changed = match key.code {
            KeyCode::Enter if shift || alt => {
                draft.insert("\n");
                true
            }
            KeyCode::Enter => return ComposerKey::Submit,
            KeyCode::Char(c) if !ctrl && !alt => {
                draft.insert(c.encode_utf8(&mut [0; 4]));
                true
            }
            KeyCode::Tab if key.modifiers.is_empty() => {
                draft.insert("    ");
                true
            }
            KeyCode::Backspace if ctrl || alt => draft.delete_word_left(),
            KeyCode::Backspace => draft.backspace(),
            KeyCode::Char('h') if ctrl => draft.backspace(),
            KeyCode::Char('w') if ctrl => draft.delete_word_left(),
            KeyCode::Delete if ctrl || alt => draft.delete_word_right(),
            KeyCode::Char('d') if alt => draft.delete_word_right(),
            KeyCode::Delete => draft.delete(),
            KeyCode::Char('d') if ctrl => draft.delete(),
            KeyCode::Left if ctrl || alt => draft.word_left(),
            KeyCode::Char('b') if alt => draft.word_left(),
            KeyCode::Left => draft.left(),
            KeyCode::Char('b') if ctrl => draft.left(),
            KeyCode::Right if ctrl || alt => draft.word_right(),
            KeyCode::Char('f') if alt => draft.word_right(),
            KeyCode::Right => draft.right(),
            KeyCode::Char('f') if ctrl => draft.right(),
            KeyCode::Home if ctrl => draft.move_to(0),
            KeyCode::End if ctrl => draft.move_to(usize::MAX),
            KeyCode::Home => draft.home(),
            KeyCode::Char('a') if ctrl => draft.home(),
            KeyCode::End => draft.end(),
            KeyCode::Char('e') if ctrl => draft.end(),
            KeyCode::Char('k') if ctrl => draft.kill_to_end(),
            KeyCode::Char('u') if ctrl => draft.kill_to_start(),
            KeyCode::Char('z') if ctrl => draft.undo(),
            KeyCode::Char('y') if ctrl => draft.redo(),
            KeyCode::Up => self.vertical(-1),
            KeyCode::Char('p') if ctrl => self.vertical(-1),
            KeyCode::Down => self.vertical(1),
            KeyCode::Char('n') if ctrl => self.vertical(1),
            _ => return ComposerKey::Unused,
        };
        if changed {
            ComposerKey::Edited
        } else {
            ComposerKey::Unused
        }
    }

    /// Moves the cursor one screen row up (`-1`) or down, to the column it came from.
    fn vertical(&mut self, step: isize) -> bool {
        let layout = self.layout();
        let goal = *self.goal_col.get_or_insert(layout.cursor_col);
        let Some(row) = layout.cursor_row.checked_add_signed(step) else {
            return false;
        };
        match layout.offset_at(self.draft.text(), row, goal) {
            Some(at) => {
                self.draft.move_to(at);
                true
            }
            None => false,
        }
    }

    fn layout(&self) -> Layout {
        Layout::new(self.draft.text(), self.draft.cursor(), self.width.get())
    }

    /// Height the composer wants in an `area_width` × `screen_height` screen: its wrapped
    /// rows plus the frame, at most [`MAX_ROWS`] rows of text or a third of the screen,
    /// at least one.
    pub fn height(&self, area_width: u16, screen_height: u16) -> u16 {
        let width = usize::from(area_width.saturating_sub(2).max(1));
        let rows = Layout::new(self.draft.text(), self.draft.cursor(), width)
            .rows
            .len();
        let limit = MAX_ROWS.min((screen_height / 3).saturating_sub(2)).max(1);
        u16::try_from(rows).unwrap_or(u16::MAX).clamp(1, limit) + 2
    }

    pub fn widget<'a>(
        &'a self,
        focused: bool,
        placeholder: Placeholder,
        theme: &Theme,
    ) -> impl Widget + 'a {
        ComposerWidget {
            composer: self,
            focused,
            placeholder,
            theme: *theme,
        }
    }
}

struct ComposerWidget<'a> {
    composer: &'a Composer,
    focused: bool,
    placeholder: Placeholder,
    theme: Theme,
}

impl Widget for ComposerWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .border_style(self.theme.border(self.focused));
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.is_empty() {
            return;
        }
        let composer = self.composer;
        composer.width.set(usize::from(inner.width));
        let text_style = self.theme.text();
        // The cursor shows only where keys type: without focus they are commands.
        let cursor_style = if self.focused {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            text_style
        };
        if composer.is_empty() {
            buf.set_string(inner.x, inner.y, " ", cursor_style);
            let room = usize::from(inner.width.saturating_sub(1));
            let hint = self.placeholder.text(room);
            buf.set_string(inner.x + 1, inner.y, hint, self.theme.dim());
            composer.top.set(0);
            return;
        }
        let text = composer.draft.text();
        let cursor = composer.draft.cursor();
        let layout = composer.layout();
        let height = usize::from(inner.height);
        let top = scroll_top(composer.top.get(), layout.cursor_row, height)
            .min(layout.rows.len().saturating_sub(height));
        composer.top.set(top);
        for (y, row) in (inner.y..inner.bottom()).zip(layout.rows.iter().skip(top)) {
            let mut x = usize::from(inner.x);
            for (offset, cluster) in text[row.clone()].grapheme_indices(true) {
                let cells = cluster_width(cluster);
                if x + cells > usize::from(inner.right()) {
                    break;
                }
                let style = if row.start + offset == cursor {
                    cursor_style
                } else {
                    text_style
                };
                for part in parts(cluster) {
                    let column = u16::try_from(x).unwrap_or(u16::MAX);
                    let width = part_width(part);
                    buf.set_stringn(column, y, drawn(part), width, style);
                    x += width;
                }
            }
        }
        // The cursor after the last cluster of its line: a blank cell.
        let cursor_y = layout.cursor_row.checked_sub(top).filter(|&r| r < height);
        if let Some(row) = cursor_y
            && next_cluster_start(text, cursor).is_none()
        {
            let x = inner.x + u16::try_from(layout.cursor_col).unwrap_or(u16::MAX);
            let y = inner.y + u16::try_from(row).unwrap_or(u16::MAX);
            if x < inner.right() {
                buf.set_string(x, y, " ", cursor_style);
            }
        }
    }
}

/// The cluster at `at`, unless `at` is at a line's end.
fn next_cluster_start(text: &str, at: usize) -> Option<usize> {
    text[at..]
        .chars()
        .next()
        .filter(|&first| first != '\n')
        .map(|_| at)
}

/// The first row shown so that the cursor's row is on screen, moving as little as
/// possible from `previous`.
fn scroll_top(previous: usize, cursor_row: usize, height: usize) -> usize {
    if cursor_row < previous {
        cursor_row
    } else if cursor_row >= previous + height {
        cursor_row + 1 - height.max(1)
    } else {
        previous
    }
}
