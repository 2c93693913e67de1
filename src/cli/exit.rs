//! Process exit codes, the same as MassGen's.

use std::process::ExitCode;

use crate::protocol::TurnOutcome;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Success = 0,
    /// Bad config or arguments.
    Config = 1,
    /// An agent or API failure left no answer.
    Execution = 2,
    Timeout = 3,
    /// Cancelled with Ctrl+C.
    Interrupted = 4,
}

impl Exit {
    /// A turn's code. A turn that timed out but still presented its best answer succeeded,
    /// as in MassGen: 3 means the time ran out with no answer.
    pub fn from_turn(outcome: TurnOutcome, answered: bool) -> Self {
        match outcome {
            TurnOutcome::Completed => Self::Success,
            TurnOutcome::TimedOut if answered => Self::Success,
            TurnOutcome::TimedOut => Self::Timeout,
            TurnOutcome::Cancelled => Self::Interrupted,
            TurnOutcome::Failed => Self::Execution,
        }
    }

    /// The code of a session of several turns: the first non-success wins.
    pub fn combine(self, next: Self) -> Self {
        if self == Self::Success { next } else { self }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit as u8)
    }
}
