//! [`Boundary`]: where an agent works and may write, as the engine's checks see it.

use std::path::PathBuf;

/// Where the agent works and may write; a write anywhere else is on the hardline list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Boundary {
    /// The agent's workspace: relative paths in calls are relative to it, and rules such
    /// as `write_file(./**)` name paths inside it.
    pub workspace: Option<PathBuf>,
    /// Every directory the agent may write (the workspace first).
    pub writable: Vec<PathBuf>,
}
