//! The final view's keys: `f` / `/final` shows the turn's final answer in the body (it
//! opens by itself when a turn ends with one), `y` / `/copy` copies it to the clipboard.

use super::{App, Effect};

impl App {
    /// `f`: the final answer in the body, or back to the cards.
    pub(super) fn toggle_final(&mut self) {
        if self.view.final_view.shown {
            self.view.final_view.shown = false;
        } else {
            self.show_final();
        }
    }

    /// Shows the final answer from its top, or says why there is none.
    pub(super) fn show_final(&mut self) {
        if self.state.final_answer().is_none() {
            self.view.notice =
                Some("no final answer yet: the winner presents it when voting ends".into());
            return;
        }
        self.view.final_view.show();
    }

    /// `y`: the final answer to the clipboard, through the terminal (OSC 52).
    pub(super) fn copy_final(&mut self) -> Vec<Effect> {
        let Some(answer) = self.state.final_answer() else {
            self.view.notice = Some("no final answer to copy yet".into());
            return Vec::new();
        };
        let text = answer.body.text.clone();
        let lines = text.lines().count();
        self.view.notice = Some(format!(
            "copied the final answer ({}) to the clipboard (OSC 52; a terminal that \
             does not allow it ignores this)",
            crate::tui::render::format::plural(lines, "line")
        ));
        vec![Effect::Copy(text)]
    }
}
