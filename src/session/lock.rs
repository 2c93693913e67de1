//! A run holds the session it records turns in: an advisory lock on `<session>/.run.lock`,
//! kept until the process exits, so a second run cannot append to the same session
//! (`--continue`, `--session-id`) and the two cannot interleave or lose turns.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The sessions this process holds, each with its open, locked lock file.
static HELD: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());

const LOCK_FILE: &str = ".run.lock";

/// Takes the lock of the session in `dir` (named `id` in the message) for the rest of this
/// process; holding it already is fine. Another run holding it is an error.
pub fn hold_session(dir: &Path, id: &str) -> Result<(), String> {
    let mut held = HELD
        .lock()
        .map_err(|_| "the session locks are poisoned".to_string())?;
    if held.iter().any(|(known, _)| known == dir) {
        return Ok(());
    }
    let path = dir.join(LOCK_FILE);
    let file = open_lock_file(&path).map_err(|error| {
        format!(
            "cannot open {}: {error}\n  help: remove it; massgen makes it again",
            path.display()
        )
    })?;
    match file.try_lock() {
        Ok(()) => {
            held.push((dir.to_path_buf(), file));
            Ok(())
        }
        Err(TryLockError::WouldBlock) => Err(format!(
            "session {id} is in use by another massgen run; wait for it to finish or start a \
             new session"
        )),
        Err(TryLockError::Error(error)) => Err(format!("cannot lock {}: {error}", path.display())),
    }
}

/// Opens (creating) a lock file whose content is never read, without blocking: a FIFO in
/// its place would hang the open, so anything but a regular file is refused.
pub(super) fn open_lock_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nonblocking = rustix::fs::OFlags::NONBLOCK.bits();
        options.custom_flags(i32::try_from(nonblocking).unwrap_or(0));
    }
    let not_regular = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        )
    };
    // A FIFO without a reader fails the open itself (ENXIO): say what it is instead.
    let file = options
        .open(path)
        .map_err(|error| match std::fs::metadata(path) {
            Ok(found) if !found.is_file() => not_regular(),
            _ => error,
        })?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_held_elsewhere_is_refused_and_held_here_is_fine() {
        let dir = tempfile::tempdir().unwrap();
        hold_session(dir.path(), "session_1").unwrap();
        hold_session(dir.path(), "session_1").unwrap();
        // Another open file description is another holder, as another process would be.
        let other = File::open(dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
    }
}
