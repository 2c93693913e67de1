//! Where the last frame drew what a mouse can point at: each card, each timeline row (with
//! the entry it shows), the timeline pane, the top modal and the composer. Render writes
//! it; the reducer reads it to route clicks and the wheel.

use ratatui::layout::{Position, Rect};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HitMap {
    /// Agent index and the card's rectangle.
    pub cards: Vec<(usize, Rect)>,
    /// The timeline pane, frame included.
    pub timeline: Option<Rect>,
    /// One screen row of the timeline and the index of the entry it shows.
    pub timeline_rows: Vec<(Rect, usize)>,
    /// The top modal, frame included.
    pub modal: Option<Rect>,
    /// The final view, when it fills the body.
    pub final_view: Option<Rect>,
    pub composer: Option<Rect>,
    /// The whole frame (where a modal about to open will be drawn follows from it).
    pub screen: Option<Rect>,
    /// Where the cards went (tab bar included), when they were on screen: `g` and the
    /// status bar ask whether all of them fit there.
    pub cards_body: Option<Rect>,
}

/// What lies under a screen position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Modal,
    /// A timeline row showing this entry.
    TimelineRow(usize),
    /// The timeline pane outside its rows (frame, title).
    Timeline,
    Card(usize),
    /// The final answer filling the body.
    FinalView,
    Composer,
}

impl HitMap {
    /// The topmost thing drawn at column `x`, row `y`.
    pub fn at(&self, x: u16, y: u16) -> Option<Hit> {
        let point = Position::new(x, y);
        let inside = |rect: &Rect| rect.contains(point);
        if self.modal.as_ref().is_some_and(inside) {
            return Some(Hit::Modal);
        }
        if let Some((_, entry)) = self.timeline_rows.iter().find(|(rect, _)| inside(rect)) {
            return Some(Hit::TimelineRow(*entry));
        }
        if self.timeline.as_ref().is_some_and(inside) {
            return Some(Hit::Timeline);
        }
        if let Some((index, _)) = self.cards.iter().find(|(_, rect)| inside(rect)) {
            return Some(Hit::Card(*index));
        }
        if self.final_view.as_ref().is_some_and(inside) {
            return Some(Hit::FinalView);
        }
        self.composer
            .as_ref()
            .is_some_and(inside)
            .then_some(Hit::Composer)
    }
}
