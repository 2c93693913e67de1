//! The final view: whether the turn's final answer fills the body (`f`), and how far it is
//! scrolled from its top — following its end while the presentation streams.

use std::cell::Cell;

/// The scroll that stays at the end while the presentation streams: the renderer clamps
/// it to the last page.
pub const FOLLOW_THE_END: usize = usize::MAX;

#[derive(Clone, Debug, Default)]
pub struct FinalView {
    /// The body shows the turn's final answer, read from the top.
    pub shown: bool,
    /// Lines scrolled down from the final answer's top, and the furthest the last frame
    /// allowed.
    pub scroll: usize,
    pub scroll_max: Cell<usize>,
}

impl FinalView {
    /// Shows the final answer from its top.
    pub fn show(&mut self) {
        self.shown = true;
        self.scroll = 0;
    }

    /// Moves towards the answer's top (`up`) or its end; reaching the end follows it as
    /// the presentation grows.
    pub fn scroll_by(&mut self, up: bool, lines: usize) {
        let furthest = self.scroll_max.get();
        let scroll = self.scroll.min(furthest);
        self.scroll = if up {
            scroll.saturating_sub(lines)
        } else if scroll + lines >= furthest {
            FOLLOW_THE_END
        } else {
            scroll + lines
        };
    }
}
