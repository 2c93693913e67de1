//! Where keys go — the composer, the body (cards or the final view) or a modal on top — as
//! `App::on_key` dispatches them, and the key hints the status bar, the mode bar, the final
//! view and a replay's bar show there. Each hint names a key that works in the focus it is
//! shown in (`app/focus_tests.rs` presses every one); a key of the body shown while the
//! composer has focus is led by `Esc → `, the key that leaves the composer.

use crate::tui::state::{Phase, UiState};
use crate::tui::view::{ModalKind, View};

/// Where the next key goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Keys type; Enter, Esc, Shift+Tab, the arrows, PgUp/PgDn and Ctrl chords do more (and
    /// `?` in an empty composer).
    Composer,
    /// Typing with the completion list open: it takes Tab, Enter, Esc and the arrows.
    Completing,
    /// Single letters are commands (`y`, `f`, `v`…); `i` or `/` goes back to typing.
    Body,
    /// The modal on top takes the keys; Esc closes it and the focus goes back where it was.
    Modal,
}

impl Focus {
    pub fn of(view: &View) -> Self {
        if !view.modals.is_empty() {
            Self::Modal
        } else if view.input.focused && view.input.popup.is_some() {
            Self::Completing
        } else if view.input.focused {
            Self::Composer
        } else {
            Self::Body
        }
    }
}

/// Leads keys of the body shown while the composer has focus.
pub const AFTER_ESC: &str = "Esc → ";

/// What goes before a key of the body in a hint: the Esc that leaves the composer.
pub fn key_lead(view: &View) -> &'static str {
    match Focus::of(view) {
        Focus::Composer => AFTER_ESC,
        // The first Esc closes the completion list.
        Focus::Completing => "Esc Esc → ",
        Focus::Body | Focus::Modal => "",
    }
}

/// The welcome view's last line: how to ask, from where the keys go now.
pub fn welcome_prompt(view: &View) -> &'static str {
    match Focus::of(view) {
        Focus::Composer | Focus::Completing | Focus::Modal => {
            "Type a question below and press Enter."
        }
        Focus::Body => "Press i to type a question below, then Enter.",
    }
}

/// A status bar hint that is never dropped for room.
pub const KEEP: u8 = 0;

/// The status bar's hints, in reading order, each with how soon it goes for room (the
/// highest first; `KEEP` never).
pub fn status_hints(state: &UiState, view: &View) -> Vec<(&'static str, u8)> {
    let running = state.is_running();
    let interrupt = if running {
        ("Ctrl+C: cancel", KEEP)
    } else {
        ("Ctrl+C: quit", KEEP)
    };
    let empty = view.input.composer.is_empty();
    let replay = state.replay.is_some();
    let refining = refining(state);
    let with = |hints: &[(&'static str, u8, bool)]| {
        hints
            .iter()
            .filter(|(_, _, shown)| *shown)
            .map(|(text, drop, _)| (*text, *drop))
            .collect::<Vec<_>>()
    };
    match Focus::of(view) {
        Focus::Modal => modal_hints(view, interrupt),
        Focus::Completing => vec![
            ("Tab: complete", 3),
            ("Esc: close the list", 4),
            if running {
                interrupt
            } else {
                ("Ctrl+C: clear", KEEP)
            },
        ],
        Focus::Composer if replay => with(&[
            ("replay: nothing is sent", 3, true),
            ("Esc: shortcuts", 2, true),
            ("?: help", KEEP, empty),
            ("/quit", KEEP, empty),
        ]),
        Focus::Composer if running => with(&[
            ("Enter: send to the agents", 3, !empty),
            (ANSWER_NOW_HINT, 6, refining),
            ("Esc: shortcuts", 4, true),
            ("?: help", KEEP, empty),
            (interrupt.0, interrupt.1, true),
        ]),
        Focus::Composer => with(&[
            ("Enter: ask", 3, !empty),
            ("/ commands", 4, empty),
            ("?: help", KEEP, empty),
            ("Esc: shortcuts", 5, true),
            ("Ctrl+C: clear", KEEP, !empty),
            ("Ctrl+C: quit", KEEP, empty),
        ]),
        Focus::Body => body_hints(state, view).to_vec(),
    }
}

/// The approval view's keys, as the status bar names them (its own lines say more).
pub const APPROVAL_HINT: &str = "y approve · s session · a always · n deny · m message";

/// The key that ends refinement and has the leader present (`app/answer_now.rs`).
pub const ANSWER_NOW_HINT: &str = "Ctrl+G: answer now";

/// Agents of a live turn are still answering or voting: "answer now" applies.
fn refining(state: &UiState) -> bool {
    state.replay.is_none()
        && state.is_running()
        && matches!(state.turn.phase, Phase::Coordinating | Phase::Voting)
}

/// A modal's own footer says what its keys do; the status bar says how to leave it and
/// where the keys go then.
fn modal_hints(view: &View, interrupt: (&'static str, u8)) -> Vec<(&'static str, u8)> {
    let top = view.modals.top();
    // A question and the agents view give Esc their own meaning (their footers say it).
    if matches!(top, Some(ModalKind::Question | ModalKind::Agents)) {
        return vec![interrupt];
    }
    if top == Some(ModalKind::Approval) {
        return vec![(APPROVAL_HINT, 3), interrupt];
    }
    let close = if view.input.focused {
        "Esc: close, back to typing"
    } else {
        "Esc: close"
    };
    vec![(close, KEEP), interrupt]
}

fn body_hints(state: &UiState, view: &View) -> &'static [(&'static str, u8)] {
    let stepping = state
        .replay
        .as_ref()
        .is_some_and(|replay| replay.step && !replay.finished);
    match () {
        () if state.replay.is_some() && stepping => &[
            ("n: next step", 2),
            ("?: help", KEEP),
            ("v votes", 4),
            ("t timeline", 5),
            ("q: quit", KEEP),
        ],
        () if state.replay.is_some() => &[
            ("?: help", KEEP),
            ("v votes", 4),
            ("c costs", 5),
            ("t timeline", 5),
            ("q: quit", KEEP),
        ],
        () if view.final_view.shown && state.final_answer().is_some() => &[
            ("f: cards", 3),
            ("y: copy", 4),
            ("↑↓ scroll", 5),
            ("?: help", KEEP),
            ("i: type", 4),
            ("q: quit", KEEP),
        ],
        () if state.final_answer().is_some() && !state.is_running() => &[
            ("f: final answer", 3),
            ("y: copy", 4),
            ("?: help", KEEP),
            ("v votes", 5),
            ("i: type", 4),
            ("q: quit", KEEP),
        ],
        () if refining(state) => &[
            ("?: help", KEEP),
            (ANSWER_NOW_HINT, 6),
            ("v votes", 4),
            ("C map", 7),
            ("c costs", 5),
            ("t timeline", 5),
            ("i: type", 3),
            ("Ctrl+C: cancel", KEEP),
        ],
        () if state.is_running() => &[
            ("?: help", KEEP),
            ("v votes", 4),
            ("C map", 6),
            ("c costs", 5),
            ("t timeline", 5),
            ("i: type", 3),
            ("Ctrl+C: cancel", KEEP),
        ],
        () => &[
            ("?: help", KEEP),
            ("v votes", 4),
            ("c costs", 5),
            ("t timeline", 5),
            ("i: type", 3),
            ("q: quit", KEEP),
        ],
    }
}

/// `g: all cards` or `g: one card` when `g` would change what the body shows: only where
/// `g` is a key (the body has focus).
pub fn grid_hint(view: &View, grid: Option<&'static str>) -> Option<&'static str> {
    grid.filter(|_| Focus::of(view) == Focus::Body)
}

/// The final view's footer; `None` while a modal has the keys.
pub fn final_view_hint(view: &View, wide: bool) -> Option<&'static str> {
    Some(match (Focus::of(view), wide) {
        (Focus::Modal, _) => return None,
        (Focus::Completing, _) => " PgUp/PgDn scroll ",
        (Focus::Body, true) => " ↑↓ PgUp/PgDn scroll · y copy · f cards ",
        (Focus::Body, false) => " y copy · f cards ",
        (Focus::Composer, true) => " PgUp/PgDn scroll · Esc → y copy · f cards ",
        (Focus::Composer, false) => " Esc → y copy · f cards ",
    })
}

/// What may follow the mode bar when nothing is to be said, longest first: the first that
/// fits is shown; none while a modal has the keys.
pub fn mode_bar_hints(view: &View) -> &'static [&'static str] {
    match Focus::of(view) {
        Focus::Modal => &[],
        Focus::Completing => &["   Shift+Tab mode"],
        Focus::Body => &[
            "   Shift+Tab mode · A agents · R refine · S strategy",
            "   Shift+Tab mode · S strategy",
            "   Shift+Tab mode",
        ],
        Focus::Composer => &[
            "   Shift+Tab mode · Esc → A agents · R refine · S strategy",
            "   Shift+Tab mode · Esc → S strategy",
            "   Shift+Tab mode",
        ],
    }
}

/// The planning options button in the mode bar (`long`: with its label).
pub fn options_button(view: &View, long: bool) -> &'static str {
    match (Focus::of(view), long) {
        (Focus::Body, true) => "  ⋮ P options",
        (Focus::Body, false) => "  ⋮ P",
        (Focus::Composer, true) => "  ⋮ Esc → P options",
        (Focus::Composer, false) => "  ⋮ Esc → P",
        (Focus::Modal | Focus::Completing, true) => "  ⋮ options",
        (Focus::Modal | Focus::Completing, false) => "  ⋮",
    }
}
