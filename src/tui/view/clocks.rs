//! What the screen's clocks read at the last tick (`tui::clocks` sets them): the turn's
//! and each agent's elapsed time, each running round's time left, an open question's time
//! left, the shown approval's time left, and the spinner's frame.

use crate::tui::state::RoundTimeLeft;

#[derive(Clone, Debug, Default)]
pub struct Clocks {
    /// Seconds since the turn started, and per agent since it became active.
    pub elapsed_secs: Option<u64>,
    pub agent_elapsed_secs: Vec<Option<u64>>,
    /// Per agent, where its running round stands against its time limit.
    pub agent_round_left: Vec<Option<RoundTimeLeft>>,
    /// Seconds before the open question times out.
    pub question_secs_left: Option<u64>,
    /// Seconds before the call the approval view shows is denied for want of an answer.
    pub approval_secs_left: Option<u64>,
    /// Spinner frame for working agents.
    pub spinner: usize,
}
