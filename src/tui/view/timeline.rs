//! The timeline pane under the cards as the user looks at it: whether it takes the
//! scrolling keys, how many entries it is scrolled up (holding its place as news comes),
//! and the entry a click selected.

#[derive(Clone, Debug, Default)]
pub struct TimelinePane {
    /// Entries scrolled up (0 = follow).
    pub scroll: usize,
    /// PgUp/PgDn, arrows and the wheel scroll the timeline instead of the focused card.
    pub focused: bool,
    /// The entry a click selected (a second click or Enter opens it).
    pub selected: Option<usize>,
}

impl TimelinePane {
    /// `added` entries came: a pane scrolled up stays on what it shows.
    pub fn keep_place(&mut self, added: usize) {
        if self.scroll > 0 {
            self.scroll += added;
        }
    }

    /// `lines` entries further up, at most to the first of `entries`.
    pub fn scroll_up(&mut self, lines: usize, entries: usize) {
        self.scroll = (self.scroll + lines).min(entries.saturating_sub(1));
    }

    /// `lines` entries back towards the newest.
    pub fn scroll_down(&mut self, lines: usize) {
        self.scroll = self.scroll.saturating_sub(lines);
    }
}
