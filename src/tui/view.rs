//! What the user chose to look at — the focused card, scrolling, the final view, the
//! composer, the open modals and their forms — and what the last frame measured for the
//! keys and the mouse; everything else on screen comes from the folded state.

mod context;
mod hits;
mod modals;

use std::cell::{Cell, RefCell};

pub use context::{ContextInfo, CwdMode};
pub use hits::{Hit, HitMap};
pub use modals::{Modal, ModalKind, TaskSource};

use crate::tui::agents_form::AgentsForm;
use crate::tui::complete::Popup;
use crate::tui::composer::Composer;
use crate::tui::files::FileListing;
use crate::tui::question::QuestionForm;
use crate::tui::state::{OutputMark, RoundTimeLeft};

/// What the user chose to look at; everything else comes from the folded state.
#[derive(Clone, Debug, Default)]
pub struct View {
    pub focused: usize,
    /// The focused card fills the body (the timeline and tallies give way).
    pub maximized: bool,
    /// The body shows the turn's final answer (`f`), read from the top.
    pub final_view: bool,
    /// Lines scrolled down from the final answer's top, and the furthest the last frame
    /// allowed.
    pub final_scroll: usize,
    pub final_scroll_max: Cell<usize>,
    /// Lines scrolled up in the focused card (0 = follow).
    pub card_scroll: usize,
    /// Where the focused card's output ended when it was scrolled up: it shows no more
    /// until it follows again.
    pub card_pause: Option<OutputMark>,
    /// Entries scrolled up in the timeline (0 = follow).
    pub timeline_scroll: usize,
    /// PgUp/PgDn, arrows and the wheel scroll the timeline instead of the focused card.
    pub timeline_focused: bool,
    /// Cards show reasoning in full instead of its last line.
    pub reasoning_expanded: bool,
    /// A one-line message (e.g. a refused mode change).
    pub notice: Option<String>,
    pub composer: Composer,
    pub composer_focused: bool,
    /// Seconds since the turn started, and per agent since it became active.
    pub elapsed_secs: Option<u64>,
    pub agent_elapsed_secs: Vec<Option<u64>>,
    /// Per agent, where its running round stands against its time limit.
    pub agent_round_left: Vec<Option<RoundTimeLeft>>,
    /// Open modals, the top one last.
    pub modals: Vec<Modal>,
    /// Completions for what the composer holds.
    pub popup: Option<Popup>,
    /// What the workspace browser shows, read when it opened or its choice changed.
    pub files: FileListing,
    /// Spinner frame for working agents.
    pub spinner: usize,
    /// The furthest the focused card and the top modal can scroll, as the last frame found
    /// (`usize::MAX` while more output lies beyond what was built).
    pub card_scroll_max: Cell<usize>,
    pub modal_scroll_max: Cell<usize>,
    /// The open question modal's form.
    pub question: Option<QuestionForm>,
    /// Seconds before the open question times out, by the clock.
    pub question_secs_left: Option<u64>,
    /// The saved plans were asked for and the listing has not come yet.
    /// The turn's cost budget (`--max-cost`, `orchestrator.max_cost_usd`), shown in the
    /// header against the turn's spend.
    pub budget_usd: Option<f64>,
    pub plans_loading: bool,
    /// What `/context` shows beyond the folded state, and the Ctrl+P choice.
    pub context: ContextInfo,
    /// The agents view's form while it is open.
    pub agents: Option<AgentsForm>,
    /// Where the last frame drew cards, timeline rows, the modal and the composer (for
    /// the mouse).
    pub hits: RefCell<HitMap>,
    /// The timeline entry a click selected (a second click or Enter opens it).
    pub timeline_selected: Option<usize>,
    /// `g`: one focused card under a tab bar, even when every card would fit side by side
    /// or in a grid (kept for the session).
    pub single_card: bool,
}
