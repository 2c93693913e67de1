//! Reaching files below an opened directory without ever leaving it: `openat2` with
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` on Linux, a component-wise `O_NOFOLLOW` walk
//! where the kernel lacks it; creating, removing, listing and walking relative to opened
//! directories. No symlink below the handle is ever followed, so swapping a directory for
//! a link between a check and the use cannot lead outside.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};
use rustix::io::Errno;

/// What an entry is, as seen without following it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File,
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

impl Kind {
    fn of(kind: FileType) -> Self {
        match kind {
            FileType::Directory => Kind::Dir,
            FileType::RegularFile => Kind::File,
            FileType::Symlink => Kind::Symlink,
            FileType::Fifo
            | FileType::Socket
            | FileType::CharacterDevice
            | FileType::BlockDevice
            | FileType::Unknown => Kind::Other,
        }
    }

    /// The kind of an opened file, from `fstat`.
    pub fn of_stat(stat: &rustix::fs::Stat) -> Self {
        Kind::of(FileType::from_raw_mode(stat.st_mode))
    }
}

/// Flags every directory handle is opened with (readable, so it can be listed).
pub const DIR: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Set when the kernel answered `ENOSYS` to `openat2`, or by [`force_component_walk`].
static WALK_ONLY: AtomicBool = AtomicBool::new(!cfg!(target_os = "linux"));

/// Makes every open below a handle use the component-wise walk instead of `openat2`, as on
/// kernels older than 5.6. For tests: both must give the same answers.
#[doc(hidden)]
pub fn force_component_walk(on: bool) {
    WALK_ONLY.store(on || !cfg!(target_os = "linux"), Ordering::SeqCst);
}

/// Opens the directory at `path` as a handle. `path` is trusted (a root the program chose):
/// symlinks in it are followed.
pub fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(rustix::fs::open(path, flags, Mode::empty())?)
}

/// Opens `relative` below `dir` with `flags` (`O_NOFOLLOW` and `O_CLOEXEC` are added),
/// following no symlink on the way, the last part included: a link anywhere gives `ELOOP`.
/// An empty `relative` opens `dir` itself; `..`, absolute paths and prefixes are refused.
pub fn open(
    dir: BorrowedFd<'_>,
    relative: &Path,
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let parts = parts(relative)?;
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    #[cfg(target_os = "linux")]
    if !WALK_ONLY.load(Ordering::Relaxed) {
        match openat2(dir, &parts, flags, mode) {
            Err(Errno::NOSYS) => WALK_ONLY.store(true, Ordering::SeqCst),
            result => return result.map_err(Into::into),
        }
    }
    walk_open(dir, &parts, flags, mode)
}

#[cfg(target_os = "linux")]
fn openat2(
    dir: BorrowedFd<'_>,
    parts: &[&OsStr],
    flags: OFlags,
    mode: Mode,
) -> Result<OwnedFd, Errno> {
    use rustix::fs::ResolveFlags;
    let path = joined(parts);
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    let mut result = rustix::fs::openat2(dir, &path, flags, mode, resolve);
    // EAGAIN: a rename raced the lookup; the kernel asks to try again.
    for _ in 0..8 {
        if !matches!(result, Err(Errno::AGAIN)) {
            break;
        }
        result = rustix::fs::openat2(dir, &path, flags, mode, resolve);
    }
    result
}

/// The fallback: one `openat(O_NOFOLLOW)` per part, each relative to the last.
pub(crate) fn walk_open(
    dir: BorrowedFd<'_>,
    parts: &[&OsStr],
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let Some((last, middle)) = parts.split_last() else {
        return Ok(rustix::fs::openat(dir, ".", flags, mode)?);
    };
    let mut current: Option<OwnedFd> = None;
    for part in middle {
        let base = current.as_ref().map_or(dir, AsFd::as_fd);
        let next = rustix::fs::openat(base, *part, WALK_DIR, Mode::empty())
            .map_err(|error| as_loop(base, part, error))?;
        current = Some(next);
    }
    let base = current.as_ref().map_or(dir, AsFd::as_fd);
    rustix::fs::openat(base, *last, flags, mode).map_err(|error| as_loop(base, last, error).into())
}

#[cfg(target_os = "linux")]
const WALK_DIR: OFlags = OFlags::PATH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);
#[cfg(not(target_os = "linux"))]
const WALK_DIR: OFlags = DIR;

/// `O_DIRECTORY | O_NOFOLLOW` on a symlink says `ENOTDIR`; `openat2` says `ELOOP`.
fn as_loop(base: BorrowedFd<'_>, name: &OsStr, error: Errno) -> Errno {
    if error == Errno::NOTDIR
        && rustix::fs::statat(base, name, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|stat| Kind::of_stat(&stat) == Kind::Symlink)
    {
        return Errno::LOOP;
    }
    error
}

/// The normal parts of `relative`; `.` is dropped, anything that could climb is refused.
pub(crate) fn parts(relative: &Path) -> io::Result<Vec<&OsStr>> {
    relative
        .components()
        .filter(|part| *part != Component::CurDir)
        .map(|part| match part {
            Component::Normal(name) => Ok(name),
            Component::Prefix(_)
            | Component::RootDir
            | Component::ParentDir
            | Component::CurDir => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a plain relative path", relative.display()),
            )),
        })
        .collect()
}

#[cfg(target_os = "linux")]
fn joined(parts: &[&OsStr]) -> PathBuf {
    if parts.is_empty() {
        return PathBuf::from(".");
    }
    parts.iter().collect()
}

/// Opens (creating it when missing) the directory `relative` below `dir`, one part at a
/// time, never through a symlink.
pub fn create_dirs(dir: BorrowedFd<'_>, relative: &Path) -> io::Result<OwnedFd> {
    let mut current = rustix::fs::openat(dir, ".", DIR, Mode::empty())?;
    for part in parts(relative)? {
        current = child_dir(current.as_fd(), part, true)?;
    }
    Ok(current)
}

/// Opens the directory `name` in `parent`; with `create`, makes it first when missing.
pub fn child_dir(parent: BorrowedFd<'_>, name: &OsStr, create: bool) -> io::Result<OwnedFd> {
    let single = [name];
    match walk_open(parent, &single, DIR, Mode::empty()) {
        Err(error) if create && error.kind() == io::ErrorKind::NotFound => {
            match rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(error) => return Err(error.into()),
            }
            walk_open(parent, &single, DIR, Mode::empty())
        }
        result => result,
    }
}

/// The entries of the opened directory `dir`, sorted by name, each with its kind (never
/// following a symlink).
pub fn entries(dir: BorrowedFd<'_>) -> io::Result<Vec<(OsString, Kind)>> {
    let mut out = Vec::new();
    for entry in Dir::read_from(dir)? {
        let entry = entry?;
        let name = OsStr::from_bytes(entry.file_name().to_bytes());
        if name == "." || name == ".." {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Unknown => rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
                .map_or(Kind::Other, |stat| Kind::of_stat(&stat)),
            known => Kind::of(known),
        };
        out.push((name.to_os_string(), kind));
    }
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Removes `name` from `parent`: a file or link is unlinked (a link is never followed), a
/// directory is emptied through handles and then removed.
pub fn remove_all(parent: BorrowedFd<'_>, name: &OsStr) -> io::Result<()> {
    let stat = rustix::fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW)?;
    if Kind::of_stat(&stat) != Kind::Dir {
        return Ok(rustix::fs::unlinkat(parent, name, AtFlags::empty())?);
    }
    let dir = child_dir(parent, name, false)?;
    for (child, _) in entries(dir.as_fd())? {
        remove_all(dir.as_fd(), &child)?;
    }
    Ok(rustix::fs::unlinkat(parent, name, AtFlags::REMOVEDIR)?)
}

/// What [`walk`] does after visiting an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Go into it (directories only) and on.
    Enter,
    /// Go on without going into it.
    Pass,
    /// End the walk.
    Stop,
}

/// One entry met by [`walk`].
pub struct Entry<'a> {
    /// The opened directory holding it.
    pub parent: BorrowedFd<'a>,
    pub name: &'a OsStr,
    /// From the walk's start, the entry's name included.
    pub relative: &'a Path,
    pub kind: Kind,
}

/// Visits everything below `dir`, depth first in name order, opening each directory by
/// its name in its opened parent with `O_NOFOLLOW`: a symlink is reported, never entered.
/// A directory that vanished or turned into something else before it was entered is left
/// out. Returns `false` when a visit stopped the walk.
pub fn walk(
    dir: BorrowedFd<'_>,
    visit: &mut dyn FnMut(&Entry<'_>) -> io::Result<Step>,
) -> io::Result<bool> {
    walk_below(dir, &mut PathBuf::new(), visit)
}

fn walk_below(
    dir: BorrowedFd<'_>,
    relative: &mut PathBuf,
    visit: &mut dyn FnMut(&Entry<'_>) -> io::Result<Step>,
) -> io::Result<bool> {
    for (name, kind) in entries(dir)? {
        relative.push(&name);
        let entry = Entry {
            parent: dir,
            name: &name,
            relative,
            kind,
        };
        let go_on = match visit(&entry)? {
            Step::Stop => false,
            Step::Pass => true,
            Step::Enter if kind != Kind::Dir => true,
            Step::Enter => match child_dir(dir, &name, false) {
                Ok(child) => walk_below(child.as_fd(), relative, visit)?,
                Err(error) if changed(&error) => true,
                Err(error) => return Err(error),
            },
        };
        relative.pop();
        if !go_on {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether an open failed because the entry vanished or was swapped for a link or a file.
pub fn changed(error: &io::Error) -> bool {
    matches!(
        Errno::from_io_error(error),
        Some(Errno::NOENT | Errno::LOOP | Errno::NOTDIR | Errno::XDEV)
    )
}

#[cfg(test)]
#[path = "beneath_tests.rs"]
mod tests;
