//! Copying a workspace tree through directory handles: every entry is opened by name in
//! its opened parent without following links, only regular files with a single name are
//! copied (cloned where the filesystem can), and version-control and dependency folders,
//! symlinks, hard links, special and oversized files are left out with a note. The new
//! tree is built beside the old one and swapped in whole.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use super::beneath::{self, Kind};

/// Directory names never copied: history and installed dependencies, not work.
pub const SKIPPED_DIRS: [&str; 6] = [
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    ".massgen",
    "massgen_logs",
];

/// Files above this size are left out.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 100 * 1024 * 1024;

/// What a copy did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub files: u64,
    pub bytes: u64,
    /// Entries left out, with why, relative to the source.
    pub skipped: Vec<String>,
}

/// Replaces `to` with a copy of `from` (an empty directory when `from` does not exist).
pub fn replace_tree(from: &Path, to: &Path, max_file_bytes: u64) -> io::Result<CopyReport> {
    let parent = to.parent().unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(parent)?;
    let staging = sibling(to, "incoming");
    remove_tree(&staging)?;
    fs::create_dir_all(&staging)?;
    let report = match copy_avoiding(from, &staging, max_file_bytes, &[to, &staging]) {
        Ok(report) => report,
        Err(error) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(error);
        }
    };
    if to.exists() {
        // The old tree is deleted in the background: removing thousands of files takes
        // about as long as cloning them, and nothing waits for it.
        let retired = sibling(to, &format!("old-{}", retired_suffix()));
        fs::rename(to, &retired)?;
        fs::rename(&staging, to)?;
        std::thread::spawn(move || {
            if let Err(error) = fs::remove_dir_all(&retired) {
                tracing::debug!(path = %retired.display(), %error, "an old snapshot was not removed");
            }
        });
    } else {
        fs::rename(&staging, to)?;
    }
    Ok(report)
}

/// Distinct per call, so a deletion still running never meets the next retired tree.
fn retired_suffix() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    (u64::from(std::process::id()) << 32) | NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Copies the contents of `from` into the directory `to` (made if missing). What is in
/// `to` already stays, unless the copy has an entry of the same name: a file or symlink
/// there is replaced (unlinked, never written through), a directory is merged into.
pub fn copy_tree(from: &Path, to: &Path, max_file_bytes: u64) -> io::Result<CopyReport> {
    fs::create_dir_all(to)?;
    copy_avoiding(from, to, max_file_bytes, &[to])
}

/// [`copy_tree`], never descending into `avoid` (the copy's own destination, when it lies
/// inside the source).
fn copy_avoiding(
    from: &Path,
    to: &Path,
    max_file_bytes: u64,
    avoid: &[&Path],
) -> io::Result<CopyReport> {
    let source = match beneath::open_dir(from) {
        Ok(source) => source,
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(CopyReport::default());
        }
        Err(error) => return Err(error),
    };
    let target = beneath::open_dir(to)?;
    let mut copier = Copier {
        from,
        avoid,
        max_file_bytes,
        report: CopyReport::default(),
        skipped_dirs: Vec::new(),
        links: 0,
        hard_links: 0,
        clone: cfg!(target_os = "linux"),
    };
    copier.dir(source.as_fd(), target.as_fd(), &mut PathBuf::new())?;
    let Copier {
        mut report,
        skipped_dirs,
        links,
        hard_links,
        ..
    } = copier;
    for name in SKIPPED_DIRS {
        if skipped_dirs.contains(&name) {
            report.skipped.push(format!("{name}/"));
        }
    }
    if links + hard_links > 0 {
        tracing::info!(
            from = %from.display(),
            symlinks = links,
            hard_links,
            "links left out of a workspace copy: symlinks are never followed or copied, and \
             files with several names may share their content with a file elsewhere"
        );
    }
    Ok(report)
}

struct Copier<'a> {
    from: &'a Path,
    avoid: &'a [&'a Path],
    max_file_bytes: u64,
    report: CopyReport,
    /// The top-level folders of [`SKIPPED_DIRS`] met.
    skipped_dirs: Vec<&'static str>,
    links: u64,
    hard_links: u64,
    /// Whether to try a copy-on-write clone first (stops at the first refusal).
    clone: bool,
}

impl Copier<'_> {
    fn dir(
        &mut self,
        source: BorrowedFd<'_>,
        target: BorrowedFd<'_>,
        relative: &mut PathBuf,
    ) -> io::Result<()> {
        for (name, kind) in beneath::entries(source)? {
            relative.push(&name);
            let copied = match kind {
                Kind::Dir => self.subdir(source, target, &name, relative),
                Kind::File => self.file(source, target, &name, relative),
                Kind::Symlink => {
                    self.links += 1;
                    self.skip(relative, "a symbolic link; links are not copied");
                    Ok(())
                }
                Kind::Other => {
                    self.skip(relative, "a special file");
                    Ok(())
                }
            };
            relative.pop();
            copied?;
        }
        Ok(())
    }

    fn subdir(
        &mut self,
        source: BorrowedFd<'_>,
        target: BorrowedFd<'_>,
        name: &OsStr,
        relative: &mut PathBuf,
    ) -> io::Result<()> {
        if let Some(skipped) = SKIPPED_DIRS
            .iter()
            .find(|skipped| OsStr::new(skipped) == name)
        {
            if relative.components().count() == 1 {
                self.skipped_dirs.push(skipped);
            }
            return Ok(());
        }
        if self.avoid.contains(&self.from.join(&*relative).as_path()) {
            return Ok(());
        }
        let child = match beneath::child_dir(source, name, false) {
            Ok(child) => child,
            Err(error) if beneath::changed(&error) => {
                self.links += 1;
                self.skip(relative, "changed while it was copied; not followed");
                return Ok(());
            }
            Err(error) => return Err(error),
        };
        let copy = match beneath::child_dir(target, name, true) {
            Err(error) if beneath::changed(&error) => {
                // A link (or file) of that name in the destination is replaced, never
                // followed.
                unlink_link(target, name)?;
                beneath::child_dir(target, name, true)?
            }
            result => result?,
        };
        self.dir(child.as_fd(), copy.as_fd(), relative)
    }

    fn file(
        &mut self,
        source: BorrowedFd<'_>,
        target: BorrowedFd<'_>,
        name: &OsStr,
        relative: &Path,
    ) -> io::Result<()> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = match rustix::fs::openat(source, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::LOOP | Errno::NOENT | Errno::NXIO) => {
                self.skip(relative, "changed while it was copied; not followed");
                return Ok(());
            }
            Err(error) => return Err(error.into()),
        };
        let stat = rustix::fs::fstat(&fd)?;
        if Kind::of_stat(&stat) != Kind::File {
            self.skip(relative, "changed while it was copied; not followed");
            return Ok(());
        }
        let size = u64::try_from(stat.st_size).unwrap_or(0);
        if size > self.max_file_bytes {
            let limit = self.max_file_bytes / 1_000_000;
            self.skip(relative, &format!("over {limit} MB"));
            return Ok(());
        }
        if stat.st_nlink > 1 {
            self.hard_links += 1;
            self.skip(relative, "a hard link; its other name may be outside");
            return Ok(());
        }
        let mode = Mode::from_raw_mode(stat.st_mode & 0o7777);
        let create =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let copy = match rustix::fs::openat(target, name, create, mode) {
            Err(Errno::EXIST) => {
                // Replaced, not written through: the old entry may be a link.
                rustix::fs::unlinkat(target, name, AtFlags::empty())?;
                rustix::fs::openat(target, name, create, mode)?
            }
            result => result?,
        };
        let (mut source, mut copy) = (File::from(fd), File::from(copy));
        #[cfg(target_os = "linux")]
        let cloned = self.clone && {
            let cloned = rustix::fs::ioctl_ficlone(&copy, &source).is_ok();
            self.clone = cloned;
            cloned
        };
        #[cfg(not(target_os = "linux"))]
        let cloned = false;
        if !cloned {
            io::copy(&mut source, &mut copy)?;
        }
        rustix::fs::fchmod(&copy, mode)?;
        self.report.files += 1;
        self.report.bytes += size;
        Ok(())
    }

    fn skip(&mut self, relative: &Path, why: &str) {
        self.report
            .skipped
            .push(format!("{} ({why})", relative.display()));
    }
}

/// Removes the symlink `name` in `parent`, so a directory can be made in its place; any
/// other entry there is an error.
fn unlink_link(parent: BorrowedFd<'_>, name: &OsStr) -> io::Result<()> {
    let stat = rustix::fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW)?;
    if Kind::of_stat(&stat) != Kind::Symlink {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is in the way of a directory", Path::new(name).display()),
        ));
    }
    Ok(rustix::fs::unlinkat(parent, name, AtFlags::empty())?)
}

fn sibling(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "tree".into(), |name| name.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{tag}"))
}

/// Removes the tree at `path`, if there is one.
pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
    match fs::remove_dir_all(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        Ok(()) | Err(_) => Ok(()),
    }
}

#[cfg(test)]
#[path = "copy_tests.rs"]
mod tests;
