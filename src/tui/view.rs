//! What the user chose to look at — the cards, the final view, the timeline pane, the
//! composer, the open modals — with what the clocks read and what the last frame measured
//! for the keys and the mouse. Each part is its own struct, changed through its own
//! methods; everything else on screen comes from the folded state.

mod cards;
mod clocks;
mod context;
mod final_view;
mod hits;
mod input;
mod modals;
mod timeline;

use std::cell::{Cell, RefCell};

pub use cards::Cards;
pub use clocks::Clocks;
pub use context::{ContextInfo, CwdMode};
pub use final_view::{FOLLOW_THE_END, FinalView};
pub use hits::{Hit, HitMap};
pub use input::Input;
pub use modals::{Modal, ModalKind, Modals, TaskSource};
pub use timeline::TimelinePane;

/// What the user chose to look at, in parts.
#[derive(Clone, Debug, Default)]
pub struct View {
    pub cards: Cards,
    pub final_view: FinalView,
    pub timeline: TimelinePane,
    pub input: Input,
    pub modals: Modals,
    pub clocks: Clocks,
    /// A one-line message (e.g. a refused mode change).
    pub notice: Option<String>,
    /// What `/context` shows beyond the folded state, and the Ctrl+P choice.
    pub context: ContextInfo,
    /// The turn's cost budget (`--max-cost`, `orchestrator.max_cost_usd`), shown in the
    /// header against the turn's spend.
    pub budget_usd: Option<f64>,
    /// Where the last frame drew cards, timeline rows, the modal and the composer (for
    /// the mouse).
    pub hits: RefCell<HitMap>,
}

impl View {
    /// The view a session starts with: the composer has the keys, and until a frame has
    /// measured the content, scrolling is not limited.
    pub fn new() -> Self {
        let mut view = Self::default();
        view.input.focused = true;
        view.cards.scroll_max = Cell::new(usize::MAX);
        view.modals.scroll_max = Cell::new(usize::MAX);
        view
    }
}
