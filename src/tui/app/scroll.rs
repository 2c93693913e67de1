//! Scrolling: the top modal, else the final view, the timeline or the focused card; a card
//! scrolled up pauses where its output ended.

use super::App;
use crate::tui::state::AgentCard;

impl App {
    /// Scrolls the top modal, else the focused pane, towards older content.
    pub fn scroll_up(&mut self, lines: usize) {
        if let Some(top) = self.view.modals.last_mut() {
            top.scroll = (top.scroll + lines).min(self.view.modal_scroll_max.get());
        } else if self.final_shown() {
            self.scroll_final(true, lines);
        } else if self.view.timeline_focused {
            let furthest = self.state.timeline.len().saturating_sub(1);
            self.view.timeline_scroll = (self.view.timeline_scroll + lines).min(furthest);
        } else {
            self.set_card_scroll(
                (self.view.card_scroll + lines).min(self.view.card_scroll_max.get()),
            );
        }
    }

    /// Scrolls back towards the newest content.
    pub fn scroll_down(&mut self, lines: usize) {
        if let Some(top) = self.view.modals.last_mut() {
            top.scroll = top.scroll.saturating_sub(lines);
        } else if self.final_shown() {
            self.scroll_final(false, lines);
        } else if self.view.timeline_focused {
            self.view.timeline_scroll = self.view.timeline_scroll.saturating_sub(lines);
        } else {
            self.set_card_scroll(self.view.card_scroll.saturating_sub(lines));
        }
    }

    fn final_shown(&self) -> bool {
        self.view.final_view && self.state.final_answer().is_some()
    }

    /// Scrolling up pauses the focused card where its output ends; back at the bottom it
    /// follows the output again.
    pub(super) fn set_card_scroll(&mut self, lines: usize) {
        self.view.card_scroll = lines;
        if lines == 0 {
            self.view.card_pause = None;
        } else if self.view.card_pause.is_none() {
            self.view.card_pause = self
                .state
                .agents
                .get(self.view.focused)
                .map(AgentCard::output_mark);
        }
    }
}
