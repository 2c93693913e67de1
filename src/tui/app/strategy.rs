//! How agents reach the next question's answer, from the keyboard: `S` cycles vote →
//! council → debate and `/strategy NAME` picks one, both refused while a turn runs or in a
//! replay. The choice goes into the `TurnOptions` every submit carries.

use super::App;
use crate::protocol::Strategy;

const STRATEGY_LOCKED: &str =
    "Cannot change the strategy while a turn runs: wait for it to end or cancel it (Ctrl+C)";

impl App {
    /// The strategy the mode bar shows: the user's choice, else the one the last turn
    /// recorded running with; `None` when neither says (the config's applies, unknown here).
    pub fn shown_strategy(&self) -> Option<Strategy> {
        self.next
            .choices
            .shown_strategy(self.state.turn.options.strategy)
    }

    /// `S`: the strategy after the one shown (after vote, the default, when none is).
    pub(super) fn cycle_strategy(&mut self) {
        if self.choices_locked(STRATEGY_LOCKED) {
            return;
        }
        let next = self.shown_strategy().unwrap_or_default().next();
        self.next.choices.strategy = Some(next);
    }

    /// `/strategy [vote|council|debate]`: that one, or the next without a name.
    pub(super) fn strategy_command(&mut self, argument: Option<&str>) {
        let Some(name) = argument else {
            self.cycle_strategy();
            return;
        };
        let Some(strategy) = Strategy::parse(name) else {
            self.view.notice = Some(format!(
                "unknown strategy \"{name}\": vote, council or debate"
            ));
            return;
        };
        if self.choices_locked(STRATEGY_LOCKED) {
            return;
        }
        self.next.choices.strategy = Some(strategy);
    }
}
