//! Scrolling: the top modal, else the final view, the timeline or the focused card; a card
//! scrolled up pauses where its output ended.

use super::App;

impl App {
    /// Scrolls the top modal, else the focused pane, towards older content.
    pub fn scroll_up(&mut self, lines: usize) {
        let modal_max = self.view.modals.scroll_max.get();
        if let Some(top) = self.view.modals.top_mut() {
            top.scroll = (top.scroll + lines).min(modal_max);
        } else if self.final_shown() {
            self.view.final_view.scroll_by(true, lines);
        } else if self.view.timeline.focused {
            self.view
                .timeline
                .scroll_up(lines, self.state.timeline.len());
        } else {
            let cards = &mut self.view.cards;
            let scroll = (cards.scroll + lines).min(cards.scroll_max.get());
            cards.scroll_to(scroll, &self.state.agents);
        }
    }

    /// Scrolls back towards the newest content.
    pub fn scroll_down(&mut self, lines: usize) {
        if let Some(top) = self.view.modals.top_mut() {
            top.scroll = top.scroll.saturating_sub(lines);
        } else if self.final_shown() {
            self.view.final_view.scroll_by(false, lines);
        } else if self.view.timeline.focused {
            self.view.timeline.scroll_down(lines);
        } else {
            let cards = &mut self.view.cards;
            cards.scroll_to(cards.scroll.saturating_sub(lines), &self.state.agents);
        }
    }

    fn final_shown(&self) -> bool {
        self.view.final_view.shown && self.state.final_answer().is_some()
    }
}
