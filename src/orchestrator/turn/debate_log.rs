//! `debate.json` in a debate turn's log directory: the members, every round's critiques
//! (critic, target, text) and revisions, the final votes, the members that failed and who
//! chaired.

use serde_json::json;

use super::Driver;
use crate::orchestrator::coordination::deliberation::Deliberation;
use crate::protocol::EventMsg;

/// The file's name in the turn's log directory.
pub(super) const DEBATE_FILE: &str = "debate.json";

impl Driver<'_> {
    pub(super) fn write_debate_log(&mut self) {
        let Some(dir) = self.emitter.log().map(|log| log.dir().to_path_buf()) else {
            return;
        };
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
        let written = serde_json::to_vec_pretty(&record)
            .map_err(|error| error.to_string())
            .and_then(|bytes| {
                std::fs::write(dir.join(DEBATE_FILE), bytes).map_err(|error| error.to_string())
            });
        if let Err(error) = written {
            self.emit(
                None,
                EventMsg::Warning {
                    message: format!("{DEBATE_FILE} could not be written: {error}"),
                },
            );
        }
    }
}
