//! [`GrantedPath`]: one path a config grants agents or massgen's own directories, of a
//! [`GrantKind`], and where it was written.

use crate::config::yaml_node::Location;

/// One path a config hands to agents or to massgen's own directories.
#[derive(Clone, Debug, PartialEq)]
pub struct GrantedPath {
    /// Its key path, like `agents[1].backend.cwd`.
    pub key: String,
    /// As written in the config.
    pub written: String,
    pub kind: GrantKind,
    pub loc: Option<Location>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrantKind {
    /// `cwd`: a bare name becomes `.massgen/workspaces/<name>_<id>`.
    Workspace,
    /// A context path: must exist.
    Context,
    /// `snapshot_storage` or `agent_temporary_workspace`: under `.massgen/` when relative.
    MassgenDir,
}
