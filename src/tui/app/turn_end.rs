//! A turn's start and end in the app: a new turn shows its cards from the bottom; an
//! ended one is recorded (`endings.rs`), says what it did not deliver, focuses the winner
//! and shows its final answer, offers the plan it made.

use super::App;
use crate::protocol::{AgentId, EventMsg, TurnOutcome};

impl App {
    /// How each live turn of the session ended: outcome, and whether a final answer was
    /// presented (for the exit code).
    pub fn turn_endings(&self) -> &[(TurnOutcome, bool)] {
        self.endings.turns()
    }

    /// The newest final answer of a live turn, as presented or as the user chose it
    /// (`--output-file` gets it when the session ends).
    pub fn latest_answer(&self) -> Option<&str> {
        self.endings.latest_answer()
    }

    /// Keeps the final answer a live turn presented or the user chose.
    pub(super) fn keep_final_answer(&mut self, msg: &EventMsg) {
        if let EventMsg::FinalPresentationDone { content, .. }
        | EventMsg::FinalOverridden { content, .. } = msg
            && !self.is_replay()
        {
            self.endings.keep_answer(content);
        }
    }

    /// A replay is watched, not asked: single keys (`?`, `n`, `q`) from the start.
    pub(super) fn replay_started(&mut self) {
        self.view.input.focused = false;
        self.view.input.popup = None;
    }

    /// A new turn: its cards from the bottom, the timeline following.
    pub(super) fn turn_started(&mut self) {
        self.view.final_view.shown = false;
        self.view.cards.follow();
        self.view.timeline.scroll = 0;
        self.awaiting_approval = None;
    }

    /// The turn ended as `outcome`, won by `winner`; `undelivered` is input the agents
    /// finished before taking.
    pub(super) fn turn_finished(
        &mut self,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        undelivered: Option<String>,
    ) {
        self.interrupt.cancel_pending = false;
        if !self.is_replay() {
            let presented = self.state.final_answer().is_some_and(|answer| answer.done);
            self.endings.record(outcome, presented);
        }
        if let Some(text) = undelivered {
            self.view.notice = Some(format!(
                "not delivered, the agents finished first: {text} (Up brings it back)"
            ));
        }
        // The final answer is on the winner's card: show it.
        if let Some(index) = winner.and_then(|id| self.state.agent_index(id)) {
            self.view.cards.focus(index);
        }
        // …and fills the body, read from its top.
        if self.state.final_answer().is_some_and(|answer| answer.done) {
            self.show_final();
        }
        self.offer_plan();
        self.end_execution(outcome);
    }
}
