//! `--output-file`: checked before any turn runs, then written — a regular or new file
//! atomically (temp + rename), a FIFO or character device in place, a symlink through to
//! what it points to (the link itself is never replaced).

use std::fs::{self, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::config::describe_kind;
use crate::session::write_atomic;

/// How the answer reaches the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A regular file, or none yet: written beside it and renamed over it.
    Replace(PathBuf),
    /// A FIFO or character device (`/dev/stdout`, `/dev/null`): opened and written.
    InPlace(PathBuf),
}

/// Where and how `path` can take the answer; the error (without a leading
/// `--output-file`) says what the path is and what to do.
pub fn check(path: &Path) -> Result<Target, String> {
    let shown = path.display();
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_symlink() => match fs::metadata(path) {
            Ok(target) if target.is_file() => fs::canonicalize(path)
                .map(Target::Replace)
                .map_err(|error| format!("{shown}: cannot follow the link: {error}")),
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
            parent_is_a_directory(path).map(|()| Target::Replace(path.to_path_buf()))
        }
        Err(error) => Err(format!("{shown}: {error}")),
    }
}

fn by_kind(path: &Path, metadata: &Metadata) -> Result<Target, String> {
    let shown = path.display();
    if metadata.is_file() {
        return Ok(Target::Replace(path.to_path_buf()));
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

/// A path that does not exist yet is created with its missing directories; the nearest
/// existing one must be a directory.
fn parent_is_a_directory(path: &Path) -> Result<(), String> {
    let mut ancestors = path.ancestors().skip(1);
    let existing = ancestors
        .find(|ancestor| ancestor.as_os_str().is_empty() || fs::metadata(ancestor).is_ok());
    match existing {
        Some(ancestor) if !ancestor.as_os_str().is_empty() && !ancestor.is_dir() => Err(format!(
            "{}: {} is not a directory\n  help: give a path whose parent is a directory",
            path.display(),
            ancestor.display()
        )),
        Some(_) | None => Ok(()),
    }
}

/// Writes `contents` to `path` as [`check`] says; a path that became unusable since
/// is an error, never replaced.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    match check(path).map_err(io::Error::other)? {
        Target::Replace(file) => write_atomic(&file, contents),
        Target::InPlace(device) => {
            let mut file = OpenOptions::new().write(true).open(device)?;
            file.write_all(contents)?;
            file.flush()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_replaced_devices_written_and_directories_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let new = root.join("sub").join("answer.txt");
        assert_eq!(check(&new), Ok(Target::Replace(new.clone())));
        write(&new, b"one").unwrap();
        assert_eq!(fs::read_to_string(&new).unwrap(), "one");
        assert!(check(&root).unwrap_err().contains("is a directory"));
        #[cfg(unix)]
        {
            let link = root.join("link");
            std::os::unix::fs::symlink(&new, &link).unwrap();
            assert_eq!(check(&link), Ok(Target::Replace(new.clone())));
            write(&link, b"two").unwrap();
            assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
            assert_eq!(fs::read_to_string(&new).unwrap(), "two");
            let null = Path::new("/dev/null");
            assert_eq!(check(null), Ok(Target::InPlace(null.to_path_buf())));
            let under_file = new.join("x.txt");
            assert!(check(&under_file).unwrap_err().contains("not a directory"));
        }
    }
}
