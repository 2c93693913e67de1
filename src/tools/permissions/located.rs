//! [`Located`]: a path the policy allowed, with the root it lies in, so the tool opens it
//! through that root's directory handle and a symlink swapped in after the check cannot
//! lead it outside.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::refusal::Problem;
use super::roots::innermost;
use super::{Access, OnDisk, PathPolicy, Refusal};
use crate::workspace::beneath;

/// Where an allowed path is: its root's directory (opened per use) and the path below it,
/// resolved at check time, so no part of it is a symlink unless one was swapped in since.
#[derive(Clone, Debug)]
pub(crate) struct Located {
    /// The resolved path, as [`PathPolicy::check`] returns it.
    path: PathBuf,
    /// The root directory (for a root that is a single file, its directory).
    base: PathBuf,
    /// `path` below `base`; empty for the root itself.
    relative: PathBuf,
    /// As the agent wrote it, and the workspace, for refusals.
    raw: String,
    workspace: PathBuf,
}

impl PathPolicy {
    /// [`check`](Self::check), keeping which root the path lies in.
    pub(crate) fn locate(&self, raw: &str, access: Access) -> Result<Located, Refusal> {
        self.on_disk().locate(raw, access)
    }
}

impl OnDisk<'_> {
    /// [`check`](Self::check), keeping which root the path lies in.
    pub(crate) fn locate(&self, raw: &str, access: Access) -> Result<Located, Refusal> {
        let path = self.check(raw, access)?;
        let workspace = self.shown_workspace();
        let Some(root) = innermost(&self.roots, &path) else {
            return Err(Problem::Outside.refuse(raw, &workspace));
        };
        let base = if root.is_file {
            root.canonical.parent().map(Path::to_path_buf)
        } else {
            Some(root.canonical.clone())
        };
        let relative = base
            .as_ref()
            .and_then(|base| path.strip_prefix(base).ok())
            .map(Path::to_path_buf);
        let (Some(base), Some(relative)) = (base, relative) else {
            return Err(Problem::Unresolvable.refuse(raw, &workspace));
        };
        Ok(Located {
            path,
            base,
            relative,
            raw: raw.to_string(),
            workspace,
        })
    }
}

impl Located {
    /// The resolved path: for messages and the ledger, never opened by name.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is a root itself rather than something in it.
    pub(crate) fn is_root(&self) -> bool {
        self.relative.as_os_str().is_empty()
    }

    /// Opens the path below its root with `flags`; no symlink is followed on the way.
    pub(crate) fn open(&self, flags: OFlags, mode: Mode) -> io::Result<OwnedFd> {
        let base = beneath::open_dir(&self.base)?;
        beneath::open(base.as_fd(), &self.relative, flags, mode)
    }

    /// The opened directory that holds the path, and the path's last name in it; with
    /// `create`, the missing directories on the way are made.
    pub(crate) fn parent(&self, create: bool) -> io::Result<(OwnedFd, OsString)> {
        let (Some(parent), Some(name)) = (self.relative.parent(), self.relative.file_name()) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a root, not an entry in one", self.path.display()),
            ));
        };
        let base = beneath::open_dir(&self.base)?;
        let dir = if create {
            beneath::create_dirs(base.as_fd(), parent)?
        } else {
            beneath::open(base.as_fd(), parent, beneath::DIR, Mode::empty())?
        };
        Ok((dir, name.to_os_string()))
    }

    /// Makes the directory and those above it that are missing.
    pub(crate) fn create_dirs(&self) -> io::Result<OwnedFd> {
        let base = beneath::open_dir(&self.base)?;
        beneath::create_dirs(base.as_fd(), &self.relative)
    }

    /// The refusal when the path changed between the check and the open: a part of it
    /// became a symlink.
    pub(crate) fn swapped(&self) -> Refusal {
        Problem::Swapped.refuse(&self.raw, &self.workspace)
    }

    /// The refusal when the opened file turned out to have other names.
    pub(crate) fn hard_linked(&self, links: u64) -> Refusal {
        Problem::HardLinked { links }.refuse(&self.raw, &self.workspace)
    }

    /// The refusal when the opened entry is a FIFO, socket or device.
    pub(crate) fn special(&self) -> Refusal {
        Problem::Special.refuse(&self.raw, &self.workspace)
    }
}
