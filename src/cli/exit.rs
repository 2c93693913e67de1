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
    pub fn from_outcome(outcome: TurnOutcome) -> Self {
        match outcome {
            TurnOutcome::Completed => Self::Success,
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
