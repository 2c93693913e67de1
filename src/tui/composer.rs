//! The composer: a multi-line text area (ratatui-textarea) with word wrap, cursor movement,
//! word deletion and undo; Enter submits, Alt+Enter (or Shift+Enter where the terminal
//! reports it) starts a new line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Widget};
use ratatui_textarea::{TextArea, WrapMode};

use super::theme::Theme;

const PLACEHOLDER: &str =
    "Ask a question · Enter to submit · Alt+Enter for a newline · /help for help";

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
    area: TextArea<'static>,
    theme: Theme,
}

impl Default for Composer {
    fn default() -> Self {
        Self::new(&Theme::default())
    }
}

impl Composer {
    pub fn new(theme: &Theme) -> Self {
        let mut area = TextArea::default();
        area.set_placeholder_text(PLACEHOLDER);
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        area.set_cursor_line_style(Style::new());
        area.set_style(theme.text());
        area.set_placeholder_style(theme.dim());
        area.set_cursor_style(Style::new().add_modifier(Modifier::REVERSED));
        Self {
            area,
            theme: *theme,
        }
    }

    /// Takes the colours of `theme` (after a theme change).
    pub fn restyle(&mut self, theme: &Theme) {
        self.theme = *theme;
        self.area.set_style(theme.text());
        self.area.set_placeholder_style(theme.dim());
    }

    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    pub fn is_empty(&self) -> bool {
        self.area.is_empty()
    }

    pub fn line_count(&self) -> usize {
        self.area.lines().len()
    }

    pub fn clear(&mut self) {
        self.area = Self::new(&self.theme).area;
    }

    /// Replaces the text, cursor at its end (history recall).
    pub fn set_text(&mut self, text: &str) {
        self.clear();
        self.area.insert_str(text);
    }

    /// Inserts pasted text at the cursor, newlines included (many terminals paste line
    /// breaks as a bare carriage return).
    pub fn insert(&mut self, text: &str) {
        self.area
            .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
    }

    pub fn key(&mut self, key: KeyEvent) -> ComposerKey {
        let newline = key
            .modifiers
            .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT);
        match key.code {
            KeyCode::Enter if newline => {
                self.area.insert_newline();
                ComposerKey::Edited
            }
            KeyCode::Enter => ComposerKey::Submit,
            KeyCode::Esc => ComposerKey::Unused,
            _ => {
                if self.area.input(key) {
                    ComposerKey::Edited
                } else {
                    ComposerKey::Unused
                }
            }
        }
    }

    /// Height the composer wants: its lines plus the frame, within 3..=8 rows.
    pub fn height(&self) -> u16 {
        u16::try_from(self.line_count().clamp(1, 6)).unwrap_or(6) + 2
    }

    pub fn widget<'a>(&'a self, focused: bool, theme: &Theme) -> impl Widget + 'a {
        ComposerWidget {
            composer: self,
            focused,
            theme: *theme,
        }
    }
}

struct ComposerWidget<'a> {
    composer: &'a Composer,
    focused: bool,
    theme: Theme,
}

impl Widget for ComposerWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .borders(Borders::ALL)
            .border_style(self.theme.border(self.focused));
        let inner = block.inner(area);
        block.render(area, buf);
        (&self.composer.area).render(inner, buf);
    }
}
