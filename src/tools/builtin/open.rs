//! Opening what the path policy allowed through its root's directory handle, with the
//! checks that matter redone on the opened file (`fstat`): its kind and its hard links.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use super::args::{ToolError, io_error};
use crate::tools::permissions::Located;
use crate::workspace::beneath::{self, Kind};

/// An open's error: a symlink met on the way (swapped in after the check) is a refusal,
/// anything else a failure saying what could not be done.
pub(super) fn failed(located: &Located, action: &str, error: &io::Error) -> ToolError {
    match Errno::from_io_error(error) {
        Some(Errno::LOOP | Errno::XDEV) => ToolError::Refused(located.swapped()),
        Some(_) | None => io_error(action, located.path(), error),
    }
}

/// Opens a file or directory for reading. A FIFO, socket or device is refused (it is
/// opened without blocking), and so is a file that has other names.
pub(super) fn read(located: &Located) -> Result<File, ToolError> {
    let fd = located
        .open(OFlags::RDONLY | OFlags::NONBLOCK, Mode::empty())
        .map_err(|error| failed(located, "read", &error))?;
    checked(located, fd, "read")
}

/// Opens an existing file for reading and writing, checked as [`read`] checks.
pub(super) fn read_write(located: &Located) -> Result<File, ToolError> {
    let fd = located
        .open(OFlags::RDWR | OFlags::NONBLOCK, Mode::empty())
        .map_err(|error| failed(located, "read", &error))?;
    checked(located, fd, "read")
}

/// Opens the file for writing, creating it and the directories above it when missing, and
/// empties it, but only once the opened file is known to be a regular file with one name:
/// a hard link to a file elsewhere is never truncated.
pub(super) fn write(located: &Located) -> Result<File, ToolError> {
    let (dir, name) = located
        .parent(true)
        .map_err(|error| failed(located, "create the folders for", &error))?;
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::NONBLOCK;
    let fd = beneath::open(
        dir.as_fd(),
        Path::new(&name),
        flags,
        Mode::from_raw_mode(0o666),
    )
    .map_err(|error| failed(located, "write", &error))?;
    let file = checked(located, fd, "write")?;
    file.set_len(0)
        .map_err(|error| io_error("write", located.path(), &error))?;
    Ok(file)
}

/// Copies the file `from` to `to` (replacing its content), with its permissions.
pub(super) fn copy(from: &Located, to: &Located) -> Result<u64, ToolError> {
    let mut source = read(from)?;
    let meta = source
        .metadata()
        .map_err(|error| io_error("copy", from.path(), &error))?;
    if meta.is_dir() {
        return Err(io_error(
            "copy",
            from.path(),
            &io::Error::from(io::ErrorKind::IsADirectory),
        ));
    }
    let mut target = write(to)?;
    let bytes = io::copy(&mut source, &mut target)
        .map_err(|error| io_error("copy", from.path(), &error))?;
    target
        .set_permissions(meta.permissions())
        .map_err(|error| io_error("copy", to.path(), &error))?;
    Ok(bytes)
}

fn checked(located: &Located, fd: OwnedFd, action: &str) -> Result<File, ToolError> {
    let stat = rustix::fs::fstat(&fd).map_err(|error| failed(located, action, &error.into()))?;
    match Kind::of_stat(&stat) {
        Kind::Dir => {}
        Kind::File if stat.st_nlink > 1 => {
            // `nlink_t` is u64 or u32 depending on the target.
            #[allow(clippy::useless_conversion)]
            let links = u64::from(stat.st_nlink);
            return Err(ToolError::Refused(located.hard_linked(links)));
        }
        Kind::File => {}
        Kind::Symlink | Kind::Other => return Err(ToolError::Refused(located.special())),
    }
    Ok(File::from(fd))
}

/// The opened directory holding `located`, its name there and what it is (a symlink is
/// not followed); `None` when it, or a directory above it, does not exist.
pub(super) fn entry(located: &Located) -> Result<Option<(OwnedFd, OsString, Kind)>, ToolError> {
    let (dir, name) = match located.parent(false) {
        Ok(found) => found,
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(error) => return Err(failed(located, "open", &error)),
    };
    match rustix::fs::statat(&dir, &name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some((dir, name, Kind::of_stat(&stat)))),
        Err(Errno::NOENT) => Ok(None),
        Err(error) => Err(failed(located, "open", &error.into())),
    }
}

/// Whether something is at `located` (a root always is).
pub(super) fn exists(located: &Located) -> Result<bool, ToolError> {
    Ok(located.is_root() || entry(located)?.is_some())
}

/// Removes what is at `located` (a directory with everything in it) through its opened
/// parent; nothing there is fine.
pub(super) fn remove(located: &Located) -> Result<(), ToolError> {
    match entry(located)? {
        Some((dir, name, _)) => beneath::remove_all(dir.as_fd(), &name)
            .map_err(|error| failed(located, "delete", &error)),
        None => Ok(()),
    }
}
