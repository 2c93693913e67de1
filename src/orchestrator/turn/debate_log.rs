//! `debate.json` in a debate turn's log directory: the members, every round's critiques
//! (critic, target, text) and revisions, the final votes, the members that failed and who
//! chaired.

use serde_json::json;

use super::Driver;
use crate::orchestrator::coordination::deliberation::Deliberation;

/// The file's name in the turn's log directory.
pub(super) const DEBATE_FILE: &str = "debate.json";

impl Driver<'_> {
    pub(super) fn write_debate_log(&mut self) {
        let Some(run) = self.council.as_ref() else {
            return;
        };
        let Some(debate) = run.debate.as_ref() else {
            return;
        };
        let Some(state) = debate.state.as_ref() else {
            return;
        };
        let record = json!({
            "question": self.request.question,
            "debate_rounds": debate.settings.rounds,
            "debate_finish": debate.settings.finish,
            "members": state.members(),
            "rounds": state.rounds(),
            "final_votes": state.votes(),
            "missing": state.missing(),
            "chairman": run.chairman.as_ref().map(|(chairman, _)| chairman),
            "chairman_basis": run.chairman.as_ref().map(|(_, basis)| basis),
        });
        self.write_turn_file(DEBATE_FILE, &record);
    }
}
