//! Why a path was refused, worded as a sentence the model can act on.

use std::fmt;
use std::path::{Path, PathBuf};

/// A path the policy would not let an agent touch; `reason` goes back to the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The path as the agent wrote it.
    pub path: String,
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Refusal {}

/// Which read-only directory a write was aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReadOnly {
    /// Peers' workspace snapshots or previous turns.
    Shared,
    /// A context path with `permission: read`.
    Context,
    /// A context path with `permission: write`, before the final presentation.
    ContextUntilPresentation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Problem {
    Empty,
    Nul,
    Home,
    Outside,
    /// Next to (or under) a context path that is a single file.
    OnlyFileShared {
        file: PathBuf,
    },
    SymlinkOutside {
        target: PathBuf,
    },
    Unresolvable,
    HardLinked {
        links: u64,
    },
    ReadOnly {
        root: PathBuf,
        why: ReadOnly,
    },
    Protected,
    /// Version control, secrets, dependencies or massgen's own files inside a context path.
    Excluded {
        name: String,
    },
    /// A FIFO, socket or device: reading it could block forever.
    Special,
    ContainsProtected {
        protected: PathBuf,
    },
    Root,
    NotRead {
        file: PathBuf,
    },
    Unlistable {
        dir: PathBuf,
    },
    /// A part of the path became a symlink between the check and the open.
    Swapped,
}

impl Problem {
    pub(super) fn refuse(self, raw: &str, workspace: &Path) -> Refusal {
        let ws = workspace.display();
        let shown = raw.replace('\0', "\\0");
        let reason = match self {
            Problem::Empty => format!(
                "The path is empty. Give a file or directory path, relative to your workspace \
                 {ws} (for example `notes.md`)."
            ),
            Problem::Nul => format!(
                "`{shown}` contains a NUL byte, which no file name can hold. Write the path \
                 again without it."
            ),
            Problem::Home => format!(
                "`{shown}` starts with `~`, which is not expanded here. Use a path relative to \
                 your workspace, or an absolute path inside {ws}."
            ),
            Problem::Outside => format!(
                "`{shown}` is outside your workspace and the other directories you may use; \
                 use paths inside {ws} (call list_allowed_directories to see the others)."
            ),
            Problem::OnlyFileShared { file } => format!(
                "`{shown}` is not shared with you: of that directory only the file {} is. \
                 Use that file, or paths inside your workspace {ws}.",
                file.display()
            ),
            Problem::SymlinkOutside { target } => format!(
                "`{shown}` is a symbolic link (or goes through one) that leads to {}, outside \
                 the directories you may use. Use the real files inside {ws} instead.",
                target.display()
            ),
            Problem::Unresolvable => format!(
                "`{shown}` goes through a symbolic link that cannot be followed (its target \
                 is missing or it loops). Use a path inside {ws} without that link."
            ),
            Problem::HardLinked { links } => format!(
                "`{shown}` has {links} hard links, so its content may be shared with a file \
                 outside the directories you may use; it is not opened. Work on a fresh file \
                 inside {ws}."
            ),
            Problem::ReadOnly { root, why } => {
                let root = root.display();
                match why {
                    ReadOnly::Shared => format!(
                        "`{shown}` is in {root}, a read-only copy (other agents' workspaces or \
                         earlier turns). Copy what you need into your workspace {ws} and \
                         change it there."
                    ),
                    ReadOnly::Context => format!(
                        "`{shown}` is in the context path {root}, which is read-only. Put \
                         your changes in your workspace {ws}."
                    ),
                    ReadOnly::ContextUntilPresentation => format!(
                        "`{shown}` is in the context path {root}, which becomes writable only \
                         during the final presentation. Put your changes in your workspace \
                         {ws} for now."
                    ),
                }
            }
            Problem::Excluded { name } => format!(
                "`{shown}` is inside `{name}`, which stays read-only in the user's files (version \
                 control, secrets, dependencies and massgen's own files are never written)."
            ),
            Problem::Special => format!(
                "`{shown}` is not a regular file or directory (a pipe, socket or device); file \
                 tools only work on regular files."
            ),
            Problem::Protected => format!(
                "`{shown}` is protected: it can never be modified, moved over or deleted. \
                 Leave it as it is."
            ),
            Problem::ContainsProtected { protected } => format!(
                "`{shown}` contains the protected path {}, which can never be modified, \
                 moved or deleted. Act on the other files one by one.",
                protected.display()
            ),
            Problem::Root => format!(
                "`{shown}` is one of the directories you were given, not a file in it; it \
                 cannot be deleted or moved. Act on the files inside it."
            ),
            Problem::NotRead { file } => format!(
                "`{shown}` cannot be deleted: you have not read or created {} in this session. \
                 Read it first (read_text_file) to be sure it can go.",
                file.display()
            ),
            Problem::Unlistable { dir } => format!(
                "`{shown}` cannot be deleted: {} could not be listed to check what it holds.",
                dir.display()
            ),
            Problem::Swapped => format!(
                "`{shown}` changed while it was being opened: a part of it is now a symbolic \
                 link, and links are not followed at that point. Nothing was done; use the \
                 real path inside {ws}."
            ),
        };
        Refusal {
            path: raw.to_string(),
            reason,
        }
    }
}
