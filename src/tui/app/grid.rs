//! `g`: every card at once (side by side, or a grid when each fits 40×8) or one focused
//! card under a tab bar. The choice lasts the session: turns, the final view and resizes
//! keep it.

use super::App;
use crate::tui::render::grid;

impl App {
    /// From the final view or a zoomed card, `g` shows all the cards; else it switches
    /// between all of them and one. Says so when the terminal is too small for them all.
    pub(super) fn toggle_grid(&mut self) {
        let view = &mut self.view;
        if view.final_view.shown || view.cards.maximized {
            view.final_view.shown = false;
            view.cards.maximized = false;
            view.cards.single = false;
        } else {
            view.cards.single = !view.cards.single;
        }
        if view.cards.single {
            return;
        }
        // The body the last frame had for the cards (or the final view in their place).
        let body = {
            let hits = view.hits.borrow();
            hits.cards_body.or(hits.final_view)
        };
        let count = self.state.agents.len();
        if body.is_some_and(|body| grid::arrange(count, body).is_none()) {
            view.notice = Some(format!(
                "{count} cards need {}×{} each to show at once: one at a time until the \
                 terminal grows",
                grid::READABLE_WIDTH,
                grid::READABLE_HEIGHT
            ));
        }
    }
}
