//! Keys while the composer has focus: the completion popup takes Tab, Enter, Up/Down and
//! Esc first; Up/Down walk the history (which presses walk it rather than move the cursor,
//! and the draft kept while walking); PgUp/PgDn scroll the body; the rest edit the text.
//! Completion opens and follows as the text is typed, never on a cursor move or a recall
//! (a recalled question is not typed text).

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect, commands};
use crate::tui::complete::{self, PopupKind};
use crate::tui::composer::ComposerKey;
use crate::tui::view::ModalKind;

impl App {
    pub(super) fn composer_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(popup) = self.view.input.popup.as_mut() {
            let accept = match key.code {
                KeyCode::Tab => true,
                // Enter takes a command suggestion, unless what is typed is already a
                // command or alias (`/r` stays `/r`); for paths it sends the question.
                KeyCode::Enter => {
                    popup.kind == PopupKind::Command
                        && key.modifiers.is_empty()
                        && !self
                            .view
                            .input
                            .composer
                            .text()
                            .trim()
                            .strip_prefix('/')
                            .is_some_and(commands::is_command_name)
                }
                KeyCode::Up | KeyCode::Down => {
                    popup.step(key.code == KeyCode::Down);
                    return Vec::new();
                }
                KeyCode::Esc => {
                    self.view.input.popup = None;
                    return Vec::new();
                }
                _ => false,
            };
            if accept {
                let text = popup.accept(&self.view.input.composer.text());
                self.view.input.composer.set_text(&text);
                self.refresh_popup();
                return Vec::new();
            }
        }
        if key.code == KeyCode::Char('?')
            && key.modifiers.is_empty()
            && self.view.input.composer.is_empty()
        {
            self.open(ModalKind::Help);
            return Vec::new();
        }
        let before = self.view.input.composer.text();
        let effects = match key.code {
            KeyCode::Esc => {
                self.view.input.focused = false;
                Vec::new()
            }
            // The text has no pages: PgUp/PgDn scroll the body (the final view, a card)
            // while typing, as the final view's footer says.
            KeyCode::PageUp => {
                self.scroll_up(10);
                return Vec::new();
            }
            KeyCode::PageDown => {
                self.scroll_down(10);
                return Vec::new();
            }
            KeyCode::Up | KeyCode::Down if self.walks_history(key.code) => {
                self.recall(if key.code == KeyCode::Up { -1 } else { 1 });
                // Completion opens on typing: a recalled `@path` or `/command` is not
                // being typed, and a popup would take the next Up/Down from the history.
                self.view.input.popup = None;
                return Vec::new();
            }
            _ => match self.view.input.composer.key(key) {
                ComposerKey::Submit => self.submit(),
                ComposerKey::Edited | ComposerKey::Unused => Vec::new(),
            },
        };
        // Suggestions follow edits; a cursor move keeps (or keeps closed) what is shown.
        if !self.view.input.focused || self.view.input.composer.text() != before {
            self.refresh_popup();
        }
        effects
    }

    /// The composer's text changed outside its own keys: suggestions follow it.
    pub(super) fn composer_changed(&mut self) -> Vec<Effect> {
        self.refresh_popup();
        Vec::new()
    }

    /// Suggestions for what the composer holds now.
    pub(super) fn refresh_popup(&mut self) {
        self.view.input.popup = if self.view.input.focused {
            complete::suggest(&self.view.input.composer.text(), &self.place.cwd)
        } else {
            None
        };
    }

    /// Whether Up or Down (`code`) walks the history: always from a recalled question left
    /// as it was with the cursor at its start or end (one line or several), else from one
    /// line of text with the cursor on the row the key leaves.
    fn walks_history(&self, code: KeyCode) -> bool {
        let composer = &self.view.input.composer;
        if self.showing_recall() && composer.cursor_at_either_end() {
            return true;
        }
        let single_line = composer.line_count() <= 1;
        match code {
            KeyCode::Up => single_line && composer.on_first_row(),
            KeyCode::Down => single_line && composer.on_last_row(),
            _ => false,
        }
    }

    /// The composer holds the recalled question unedited.
    fn showing_recall(&self) -> bool {
        self.history
            .recalled()
            .is_some_and(|recalled| recalled == self.view.input.composer.text())
    }

    /// Up (`step < 0`) and Down through earlier questions; the draft being written is kept
    /// and comes back after the newest entry.
    fn recall(&mut self, step: isize) {
        let typed = self.view.input.composer.text();
        if let Some(text) = self.history.step(step, typed) {
            self.view.input.composer.set_text(&text);
        }
    }
}
