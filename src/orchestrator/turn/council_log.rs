//! `rankings.json` in a council turn's log directory: every ballot with the labels its
//! ranker was shown and how it came, the aggregate, the missing members, the chairman and
//! why it chaired; and the writing of a strategy's log file.

use serde_json::json;

use super::Driver;
use crate::protocol::EventMsg;

/// The file's name in the turn's log directory.
pub(super) const RANKINGS_FILE: &str = "rankings.json";

impl Driver<'_> {
    pub(super) fn write_rankings(&mut self) {
        let Some(run) = self.council.as_ref() else {
            return;
        };
        let Some(council) = run.state.as_ref() else {
            return;
        };
        let record = json!({
            "question": self.request.question,
            "rank_own": self.run.config.orchestrator.council.rank_own,
            "members": council.members(),
            "ballots": council.ballots(),
            "aggregate": council.standings(),
            "missing": council.missing(),
            "chairman": run.chairman.as_ref().map(|(chairman, _)| chairman),
            "chairman_basis": run.chairman.as_ref().map(|(_, basis)| basis),
        });
        self.write_turn_file(RANKINGS_FILE, &record);
    }

    /// Writes `record` as `name` in the turn's log directory (a warning when it cannot).
    pub(super) fn write_turn_file(&mut self, name: &str, record: &serde_json::Value) {
        let Some(dir) = self.emitter.log().map(|log| log.dir().to_path_buf()) else {
            return;
        };
        let written = serde_json::to_vec_pretty(record)
            .map_err(|error| error.to_string())
            .and_then(|bytes| {
                std::fs::write(dir.join(name), bytes).map_err(|error| error.to_string())
            });
        if let Err(error) = written {
            self.emit(
                None,
                EventMsg::Warning {
                    message: format!("{name} could not be written: {error}"),
                },
            );
        }
    }
}
