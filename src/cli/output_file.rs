//! `--output-file`: checked before any turn runs, then written without ever blocking the
//! session. A regular file is replaced atomically (temp + rename, its mode and owner kept)
//! unless replacing would break something (several hard links, another user's file, a
//! directory the user cannot write): then it is rewritten in place. A FIFO or character
//! device is written in place, a symlink through to what it points to (the link itself is
//! never replaced). A read-only file is refused, and a missing directory is never created.

mod writing;

use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

pub use writing::save_answer;

use crate::config::describe_kind;

/// How the answer reaches the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A regular file of the user's, or none yet in an existing directory: written beside
    /// it and renamed over it.
    Replace(PathBuf),
    /// A regular file with other hard links, owned by another user, or in a directory the
    /// user cannot write: truncated and written in place, so every link sees the answer
    /// and the file stays what it was.
    Rewrite(PathBuf),
    /// A FIFO or character device (`/dev/stdout`, `/dev/null`): opened without blocking
    /// and written.
    InPlace(PathBuf),
}

/// Where and how `path` can take the answer; the error (without a leading
/// `--output-file`) says what the path is and what to do.
pub fn check(path: &Path) -> Result<Target, String> {
    let shown = path.display();
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_symlink() => match fs::metadata(path) {
            Ok(target) if target.is_file() => fs::canonicalize(path)
                .map_err(|error| format!("{shown}: cannot follow the link: {error}"))
                .and_then(|file| regular(&file, &target)),
            Ok(target) => by_kind(path, &target),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let points_to = fs::read_link(path)
                    .map(|target| target.display().to_string())
                    .unwrap_or_default();
                Err(format!(
                    "{shown} is a symbolic link to {points_to}, which does not exist\n  help: \
                     create the file it points to, or give another path"
                ))
            }
            Err(error) => Err(format!("{shown}: cannot follow the link: {error}")),
        },
        Ok(metadata) => by_kind(path, &metadata),
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            in_an_existing_directory(path).map(|()| Target::Replace(path.to_path_buf()))
        }
        Err(error) => Err(format!("{shown}: {error}")),
    }
}

fn by_kind(path: &Path, metadata: &Metadata) -> Result<Target, String> {
    let shown = path.display();
    if metadata.is_file() {
        return regular(path, metadata);
    }
    if metadata.is_dir() {
        return Err(format!(
            "{shown} is a directory\n  help: name a file, e.g. {}",
            path.join("answer.txt").display()
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() || kind.is_char_device() {
            return Ok(Target::InPlace(path.to_path_buf()));
        }
    }
    Err(format!(
        "{shown} is {}; answers are written to files, FIFOs and character devices only\n  \
         help: give the path of a file",
        describe_kind(metadata)
    ))
}

/// An existing regular file: refused when read-only, else replaced or rewritten.
fn regular(path: &Path, metadata: &Metadata) -> Result<Target, String> {
    let shown = path.display();
    // No write bit at all is read-only even for root, who could write it anyway.
    let refused = if metadata.permissions().readonly() {
        "is read-only"
    } else if !writable(path) {
        "is not writable by this user"
    } else {
        ""
    };
    if !refused.is_empty() {
        return Err(format!(
            "{shown} {refused} ({}): massgen does not replace it\n  help: make it writable \
             (chmod u+w {shown}) or give another path",
            permissions(metadata)
        ));
    }
    let directory = parent_of(path);
    if several_links(metadata) || !owned_by_the_user(metadata) || !writable(directory) {
        return Ok(Target::Rewrite(path.to_path_buf()));
    }
    Ok(Target::Replace(path.to_path_buf()))
}

/// A new file goes in a directory that exists: missing directories are not made.
fn in_an_existing_directory(path: &Path) -> Result<(), String> {
    let shown = path.display();
    let directory = parent_of(path);
    let named = directory.display();
    match fs::metadata(directory) {
        Ok(metadata) if metadata.is_dir() => {
            if writable(directory) {
                Ok(())
            } else {
                Err(format!(
                    "{shown}: cannot create a file in {named}: permission denied\n  help: give \
                     a path in a directory you can write"
                ))
            }
        }
        Ok(_) => Err(format!(
            "{shown}: {named} is not a directory\n  help: give a path whose parent is a \
             directory"
        )),
        Err(error) if error.kind() == io::ErrorKind::NotADirectory => Err(format!(
            "{shown}: a part of {named} is not a directory\n  help: give a path whose parent is \
             a directory"
        )),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Err(format!(
            "{shown}: the directory {named} does not exist (massgen does not create \
             directories)\n  help: create it first (mkdir -p {named}) or give a path in an \
             existing directory"
        )),
        Err(error) => Err(format!("{shown}: {named}: {error}")),
    }
}

/// The directory `path` is in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    path.parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."))
}

/// This process may write `path` (as the kernel decides, for the real user).
fn writable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        rustix::fs::access(path, rustix::fs::Access::WRITE_OK).is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

fn several_links(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        metadata.nlink() > 1
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// A replacement would belong to this process's user: it may take the old file's owner
/// only if that is the user already, or the user is root.
fn owned_by_the_user(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let user = rustix::process::geteuid();
        user.is_root() || metadata.uid() == user.as_raw()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        true
    }
}

/// `mode 0444`, for messages.
fn permissions(metadata: &Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        format!("mode {:04o}", metadata.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        "read-only attribute".to_string()
    }
}

#[cfg(test)]
mod tests;
