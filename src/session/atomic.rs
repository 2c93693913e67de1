//! Durable file writes: a killed process never leaves a half-written file behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Tells apart the temporary files of writes under way in this process.
static NEXT_TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// `value` as pretty JSON with a final newline, as every JSON file under `.massgen/` is.
pub fn pretty_json(value: &serde_json::Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Writes `contents` to a temporary file beside `path`, syncs it, and renames it over
/// `path`. Creates missing parent directories. The temporary file is always new: a name
/// planted beforehand (a symlink a repository ships as `.answer.txt.<pid>.tmp`) is removed,
/// never written through.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    atomically(path, |file| file.write_all(contents))
}

/// Like [`write_atomic`], for contents too large to hold: `write` streams them into the
/// temporary file, through a buffer.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    atomically(path, |file| {
        let mut buffered = BufWriter::with_capacity(64 * 1024, file);
        write(&mut buffered)?;
        buffered.flush()
    })
}

fn atomically(path: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let parent = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(parent)?;
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let serial = NEXT_TEMPORARY.fetch_add(1, Ordering::Relaxed);
    let temporary = parent.join(format!(".{file_name}.{}.{serial}.tmp", std::process::id()));
    let _ = fs::remove_file(&temporary);
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        write(&mut file)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("answer.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_temporary_link_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        fs::write(&victim, "kept").unwrap();
        let serial = NEXT_TEMPORARY.load(Ordering::Relaxed);
        for next in serial..serial + 64 {
            let planted = dir
                .path()
                .join(format!(".status.json.{}.{next}.tmp", std::process::id()));
            std::os::unix::fs::symlink(&victim, planted).unwrap();
        }
        let path = dir.path().join("status.json");
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "kept");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }
}
