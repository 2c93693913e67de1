//! The agents' cards as the user looks at them: which one has focus, whether it fills the
//! body or all of them show at once, whether reasoning shows in full, and how far the
//! focused card is scrolled up (pausing where its output ended, so it stops moving).

use std::cell::Cell;

use crate::tui::state::{AgentCard, OutputMark};

#[derive(Clone, Debug, Default)]
pub struct Cards {
    pub focused: usize,
    /// The focused card fills the body (the timeline and tallies give way).
    pub maximized: bool,
    /// `g`: one focused card under a tab bar, even when every card would fit side by side
    /// or in a grid (kept for the session).
    pub single: bool,
    /// Cards show reasoning in full instead of its last line.
    pub reasoning_expanded: bool,
    /// Lines scrolled up in the focused card (0 = follow).
    pub scroll: usize,
    /// Where the focused card's output ended when it was scrolled up: it shows no more
    /// until it follows again.
    pub pause: Option<OutputMark>,
    /// The furthest the focused card can scroll, as the last frame found (`usize::MAX`
    /// while more output lies beyond what was built).
    pub scroll_max: Cell<usize>,
}

impl Cards {
    /// Focuses the card at `index`; a newly focused card follows its output.
    pub fn focus(&mut self, index: usize) {
        if index != self.focused {
            self.focused = index;
            self.follow();
        }
    }

    /// Back at the bottom: the focused card follows its output again.
    pub fn follow(&mut self) {
        self.scroll = 0;
        self.pause = None;
    }

    /// Scrolls the focused card `lines` up from its bottom. Leaving the bottom pauses it
    /// where its output (among `agents`) ends; back at the bottom it follows again.
    pub fn scroll_to(&mut self, lines: usize, agents: &[AgentCard]) {
        self.scroll = lines;
        if lines == 0 {
            self.pause = None;
        } else if self.pause.is_none() {
            self.pause = agents.get(self.focused).map(AgentCard::output_mark);
        }
    }
}
