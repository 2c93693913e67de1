//! Where the user types: the composer, whether it has the keys (else single keys are
//! commands), and the completions for what it holds.

use crate::tui::complete::Popup;
use crate::tui::composer::Composer;

#[derive(Clone, Debug, Default)]
pub struct Input {
    pub composer: Composer,
    /// Keys go into the composer (else, outside a modal, to the body as commands).
    pub focused: bool,
    /// Completions for what the composer holds.
    pub popup: Option<Popup>,
}
