//! The questions asked, for Up/Down: where Up/Down is among them, and the draft kept while
//! walking them (the keys that walk them are `composer_keys.rs`'s).

/// Submitted questions, and where Up/Down is among them.
#[derive(Clone, Debug, Default)]
pub(super) struct History {
    /// Oldest first.
    entries: Vec<String>,
    /// Where Up/Down is in `entries` (`None` = editing a new entry).
    at: Option<usize>,
    /// The draft being written when Up first recalled history; Down past the newest entry
    /// brings it back.
    draft: Option<String>,
}

impl History {
    /// Adds `text`, unless it repeats the newest entry.
    pub(super) fn remember(&mut self, text: String) {
        if self.entries.last() != Some(&text) {
            self.entries.push(text);
        }
    }

    /// What is typed next is a new entry, not a recalled one.
    pub(super) fn leave(&mut self) {
        self.at = None;
    }

    /// The entry Up/Down last recalled, if walking.
    pub(super) fn recalled(&self) -> Option<&str> {
        self.at
            .and_then(|at| self.entries.get(at))
            .map(String::as_str)
    }

    /// One step up (`step < 0`) or down from where Up/Down is, with `typed` in the
    /// composer: the text to show there, or `None` when the step goes nowhere. The draft
    /// is kept on the first step up and comes back after the newest entry.
    pub(super) fn step(&mut self, step: isize, typed: String) -> Option<String> {
        let last = self.entries.len().checked_sub(1)?;
        let next = match (self.at, step < 0) {
            (None, true) => {
                self.draft = Some(typed);
                Some(last)
            }
            (None, false) => return None,
            (Some(at), true) => Some(at.saturating_sub(1)),
            (Some(at), false) if at < last => Some(at + 1),
            (Some(_), false) => None,
        };
        self.at = next;
        Some(match next {
            Some(at) => self.entries.get(at).cloned().unwrap_or_default(),
            None => self.draft.take().unwrap_or_default(),
        })
    }
}
