//! Writing the answer to `--output-file` as [`check`](super::check) says, without ever
//! blocking the session: files are written on a blocking thread, a FIFO is opened without
//! blocking (its reader is waited for at most [`READER_WAIT`]) and written asynchronously,
//! and every open, write and wait gives way to Ctrl+C, SIGTERM or SIGHUP.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use super::{Target, check, parent_of};
use crate::cli::exit::Exit;
use crate::cli::front_end::{Interrupts, note};

/// How long a FIFO may have no reader before the answer is given up on.
pub const READER_WAIT: Duration = Duration::from_secs(5);
/// How often a FIFO is tried for a reader meanwhile.
const READER_POLL: Duration = Duration::from_millis(50);

/// Why the answer did not reach the path.
#[derive(Debug)]
pub enum Failure {
    /// An interrupt came first; it is named ("Ctrl+C", "SIGTERM", "SIGHUP").
    Interrupted(&'static str),
    /// The path could not take it.
    Failed(io::Error),
}

/// Writes a turn's answer to `path`, saying on standard error why when it could not be:
/// the exit code that adds (`Success` once written, `Interrupted` when a signal came first).
pub async fn save_answer(path: &Path, answer: &str, interrupts: &mut Interrupts) -> Exit {
    let shown = path.display();
    match write(path, answer.as_bytes(), interrupts).await {
        Ok(()) => Exit::Success,
        Err(Failure::Interrupted(name)) => {
            note(&format!(
                "\nmassgen: {name}: stopped writing --output-file {shown}; the answer is still \
                 in this run's output and session"
            ));
            Exit::Interrupted
        }
        Err(Failure::Failed(error)) => {
            note(&format!(
                "error: cannot write --output-file {shown}: {error}\n  the answer is still in \
                 this run's output and session"
            ));
            Exit::Execution
        }
    }
}

/// Writes `contents` to `path` as [`check`] says now (a path that became unusable since is
/// an error, never replaced); any interrupt ends the wait at once.
pub async fn write(
    path: &Path,
    contents: &[u8],
    interrupts: &mut Interrupts,
) -> Result<(), Failure> {
    let target = check(path).map_err(|message| Failure::Failed(io::Error::other(message)))?;
    match target {
        Target::Replace(file) => {
            let contents = contents.to_vec();
            off_the_runtime(interrupts, move || replace(&file, &contents)).await
        }
        Target::Rewrite(file) => {
            let contents = contents.to_vec();
            off_the_runtime(interrupts, move || rewrite(&file, &contents)).await
        }
        Target::InPlace(device) => in_place(&device, contents, interrupts).await,
    }
}

/// Runs `job` on a blocking thread; an interrupt returns at once (the thread is left to
/// finish or to die with the process).
async fn off_the_runtime(
    interrupts: &mut Interrupts,
    job: impl FnOnce() -> io::Result<()> + Send + 'static,
) -> Result<(), Failure> {
    let task = tokio::task::spawn_blocking(job);
    tokio::select! {
        done = task => done
            .unwrap_or_else(|error| Err(io::Error::other(error)))
            .map_err(Failure::Failed),
        name = interrupts.recv() => Err(Failure::Interrupted(name)),
    }
}

/// Writes a file beside `path` and renames it over it. An existing file's permission bits
/// (and owner and group, where this user may set them) pass to the new one.
fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    let old = fs::metadata(path).ok();
    let (temporary, mut file) = temporary_beside(path)?;
    let written = (|| {
        if let Some(old) = &old {
            keep_owner_and_mode(&file, old)?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// A new file of this process's own beside `path` (never one that was there: a name taken,
/// even by a symlink, is skipped).
fn temporary_beside(path: &Path) -> io::Result<(std::path::PathBuf, File)> {
    let directory = parent_of(path);
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut last_error = None;
    for attempt in 0..16 {
        let temporary = directory.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
        {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Owner and group first (which may clear set-id bits), then the permission bits; set-id
/// and sticky bits are not carried over to an answer.
fn keep_owner_and_mode(file: &File, old: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // Only root may give a file away, and a group only to one of the user's own: what
        // cannot be kept is left as created (check() rewrites others' files in place).
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
        file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))
    }
    #[cfg(not(unix))]
    {
        file.set_permissions(old.permissions())
    }
}

/// Truncates and writes the file itself, so its other hard links, owner and mode stay.
fn rewrite(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = open_for_writing(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(format!(
            "{} is no longer a regular file; nothing was written",
            path.display()
        )));
    }
    file.set_len(0)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// Opens `path` to write without truncating it and without blocking: a FIFO with no reader
/// is an error at once (`ENXIO`) instead of a wait nothing can end.
fn open_for_writing(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::open(path, flags, Mode::empty())?))
    }
    #[cfg(not(unix))]
    {
        OpenOptions::new().write(true).open(path)
    }
}

/// A FIFO or character device: opened without blocking (a FIFO's reader waited for at most
/// [`READER_WAIT`]), then written asynchronously (a FIFO) or on a blocking thread.
#[cfg(unix)]
async fn in_place(
    device: &Path,
    contents: &[u8],
    interrupts: &mut Interrupts,
) -> Result<(), Failure> {
    use std::os::unix::fs::FileTypeExt;
    use tokio::io::AsyncWriteExt;

    let deadline = tokio::time::Instant::now() + READER_WAIT;
    let file = loop {
        match open_for_writing(device) {
            Ok(file) => break file,
            Err(error) if error.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) => {
                if tokio::time::Instant::now() >= deadline {
                    return Err(Failure::Failed(io::Error::other(format!(
                        "no reader on the FIFO {}: nothing opened it to read within {} s\n  \
                         help: start the reader first (e.g. cat {0} &)",
                        device.display(),
                        READER_WAIT.as_secs()
                    ))));
                }
                tokio::select! {
                    () = tokio::time::sleep(READER_POLL) => {}
                    name = interrupts.recv() => return Err(Failure::Interrupted(name)),
                }
            }
            Err(error) => return Err(Failure::Failed(error)),
        }
    };
    let kind = file.metadata().map_err(Failure::Failed)?.file_type();
    if kind.is_fifo() {
        let mut pipe = tokio::net::unix::pipe::Sender::from_file(file).map_err(Failure::Failed)?;
        let sent = async {
            pipe.write_all(contents).await?;
            pipe.flush().await
        };
        return tokio::select! {
            sent = sent => sent.map_err(Failure::Failed),
            name = interrupts.recv() => Err(Failure::Interrupted(name)),
        };
    }
    if !kind.is_char_device() {
        return Err(Failure::Failed(io::Error::other(format!(
            "{} is no longer a FIFO or character device; nothing was written",
            device.display()
        ))));
    }
    let blocking = rustix::fs::fcntl_getfl(&file)
        .and_then(|flags| rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK));
    blocking.map_err(|error| Failure::Failed(error.into()))?;
    let contents = contents.to_vec();
    let mut file = file;
    off_the_runtime(interrupts, move || {
        file.write_all(&contents)?;
        file.flush()
    })
    .await
}

#[cfg(not(unix))]
async fn in_place(
    device: &Path,
    contents: &[u8],
    interrupts: &mut Interrupts,
) -> Result<(), Failure> {
    let (device, contents) = (device.to_path_buf(), contents.to_vec());
    off_the_runtime(interrupts, move || {
        let mut file = open_for_writing(&device)?;
        file.write_all(&contents)?;
        file.flush()
    })
    .await
}
