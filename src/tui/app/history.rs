//! Up/Down through earlier questions: which presses walk the history rather than move the
//! cursor, and the draft kept while walking. A recalled question is not typed text, so it
//! never opens a completion popup (the caller closes it).

use crossterm::event::KeyCode;

use super::App;

impl App {
    pub(super) fn remember(&mut self, text: String) {
        if self.history.last() != Some(&text) {
            self.history.push(text);
        }
    }

    /// Whether Up or Down (`code`) walks the history: always from a recalled question left
    /// as it was with the cursor at its start or end (one line or several), else from one
    /// line of text with the cursor on the row the key leaves.
    pub(super) fn walks_history(&self, code: KeyCode) -> bool {
        let composer = &self.view.composer;
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
        self.history_at
            .and_then(|at| self.history.get(at))
            .is_some_and(|recalled| *recalled == self.view.composer.text())
    }

    /// Up (`step < 0`) and Down through earlier questions; the draft being written is kept
    /// and comes back after the newest entry.
    pub(super) fn recall(&mut self, step: isize) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let next = match (self.history_at, step < 0) {
            (None, true) => {
                self.draft = Some(self.view.composer.text());
                Some(last)
            }
            (None, false) => return,
            (Some(at), true) => Some(at.saturating_sub(1)),
            (Some(at), false) if at < last => Some(at + 1),
            (Some(_), false) => None,
        };
        self.history_at = next;
        let text = match next {
            Some(at) => self.history.get(at).cloned().unwrap_or_default(),
            None => self.draft.take().unwrap_or_default(),
        };
        self.view.composer.set_text(&text);
    }
}
