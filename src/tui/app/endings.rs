//! What the session keeps of its live turns' ends, for the exit code and `--output-file`:
//! how each ended, and the newest final answer (a replay's turns are not counted).

use crate::protocol::TurnOutcome;

#[derive(Clone, Debug, Default)]
pub(super) struct Endings {
    /// Each live turn's outcome, and whether a final answer was presented.
    turns: Vec<(TurnOutcome, bool)>,
    /// The newest final answer of a live turn, as presented or as the user chose it.
    latest_answer: Option<String>,
}

impl Endings {
    pub(super) fn turns(&self) -> &[(TurnOutcome, bool)] {
        &self.turns
    }

    pub(super) fn latest_answer(&self) -> Option<&str> {
        self.latest_answer.as_deref()
    }

    /// A live turn ended as `outcome`, with a final answer `presented` or not.
    pub(super) fn record(&mut self, outcome: TurnOutcome, presented: bool) {
        self.turns.push((outcome, presented));
    }

    /// A live turn's final answer, as presented or as the user chose it.
    pub(super) fn keep_answer(&mut self, content: &str) {
        self.latest_answer = Some(content.to_string());
    }
}
