//! Reading files massgen keeps for itself (sessions, plans, logs, `.env`) with a type and a
//! size bound: only regular files are read, they are opened without blocking (a FIFO in
//! their place cannot hang the run) and at most a given number of bytes is ever held.
//!
//! The errors are plain [`io::Error`]s, so callers keep matching on
//! [`io::ErrorKind::NotFound`]; a special file is [`io::ErrorKind::InvalidInput`] and a file
//! over its bound is [`io::ErrorKind::FileTooLarge`], each with a message that names it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// 1 MiB, for counting bounds.
pub const MIB: u64 = 1024 * 1024;

/// Opens `path` (following symlinks) for reading, refusing anything but a regular file no
/// larger than `max_bytes` at open time. Reading on must still be bounded: the file can grow.
pub fn open(path: &Path, max_bytes: u64) -> io::Result<File> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    Ok(file)
}

/// Opens `path` for reading when it is a regular file, whatever its size.
pub fn open_regular(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        File::from(rustix::fs::open(path, flags, Mode::empty())?)
    };
    #[cfg(not(unix))]
    let file = File::open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is {}, not a regular file; massgen reads only regular files here",
                path.display(),
                describe(kind)
            ),
        ));
    }
    Ok(file)
}

/// The whole of `path`, when it is a regular file of at most `max_bytes`.
pub fn read(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let file = open(path, max_bytes)?;
    let expected = usize::try_from(file.metadata()?.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(expected.saturating_add(1));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path, max_bytes: u64) -> io::Result<String> {
    String::from_utf8(read(path, max_bytes)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not valid UTF-8 text", path.display()),
        )
    })
}

fn too_large(path: &Path, max_bytes: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{} is larger than {}, the most massgen reads of such a file; it is not read",
            path.display(),
            size_words(max_bytes)
        ),
    )
}

fn size_words(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

fn describe(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_regular_file_within_its_bound_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, "{}").unwrap();
        assert_eq!(read_to_string(&path, 2).unwrap(), "{}");
    }

    #[test]
    fn a_file_over_its_bound_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("answer.txt");
        std::fs::write(&path, "123").unwrap();
        let error = read(&path, 2).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert!(error.to_string().contains("answer.txt"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_directories_and_missing_files_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("plan.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let error = read(&zero, MIB).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("a device"), "{error}");
        let error = read(dir.path(), MIB).unwrap_err();
        assert!(error.to_string().contains("a directory"), "{error}");
        let error = read(&dir.path().join("missing"), MIB).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_fifo_without_a_writer_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("status.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error = read(&fifo, MIB).unwrap_err();
        assert!(error.to_string().contains("a FIFO"), "{error}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_reports_no_size_is_still_bounded() {
        let error = read(Path::new("/proc/self/maps"), 16).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
    }
}
