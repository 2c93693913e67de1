//! Copying a workspace tree: copy-on-write clones where the filesystem can, plain copies
//! elsewhere; version-control and dependency folders, links and oversized files are left
//! out with a note. The new tree is built beside the old one and swapped in whole.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

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

/// Copies the contents of `from` into the existing directory `to`.
pub fn copy_tree(from: &Path, to: &Path, max_file_bytes: u64) -> io::Result<CopyReport> {
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
    let mut report = CopyReport::default();
    if !from.is_dir() {
        return Ok(report);
    }
    let walk = WalkDir::new(from)
        .min_depth(1)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            !(entry.file_type().is_dir()
                && (SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref())
                    || avoid.contains(&entry.path())))
        });
    for entry in walk {
        let entry = entry.map_err(io::Error::other)?;
        let relative = entry.path().strip_prefix(from).map_err(io::Error::other)?;
        let target = to.join(relative);
        let kind = entry.file_type();
        if kind.is_dir() {
            fs::create_dir_all(&target)?;
        } else if kind.is_file() {
            let size = entry.metadata().map_err(io::Error::other)?.len();
            if size > max_file_bytes {
                report.skipped.push(format!(
                    "{} (over {} MB)",
                    relative.display(),
                    max_file_bytes / 1_000_000
                ));
                continue;
            }
            reflink_copy::reflink_or_copy(entry.path(), &target)?;
            report.files += 1;
            report.bytes += size;
        } else {
            report
                .skipped
                .push(format!("{} (a link or special file)", relative.display()));
        }
    }
    for name in SKIPPED_DIRS {
        if from.join(name).is_dir() {
            report.skipped.push(format!("{name}/"));
        }
    }
    Ok(report)
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
mod tests {
    use super::*;

    fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn copies_files_and_leaves_out_history_dependencies_links_and_big_files() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        write(&from, "src/main.rs", "fn main() {}");
        write(&from, "README.md", "hi");
        write(&from, ".git/HEAD", "ref");
        write(&from, "node_modules/x/index.js", "x");
        write(&from, "big.bin", &"0".repeat(2_000));
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/passwd", from.join("link")).unwrap();
        let to = dir.path().join("snapshots/a");
        let report = replace_tree(&from, &to, 1_000).unwrap();
        assert_eq!(report.files, 2);
        assert_eq!(report.bytes, 14);
        assert_eq!(
            fs::read_to_string(to.join("src/main.rs")).unwrap(),
            "fn main() {}"
        );
        assert!(!to.join(".git").exists() && !to.join("node_modules").exists());
        assert!(!to.join("big.bin").exists() && !to.join("link").exists());
        assert!(report.skipped.contains(&"big.bin (over 0 MB)".to_string()));
        assert!(report.skipped.contains(&".git/".to_string()));
        #[cfg(unix)]
        assert!(report.skipped.iter().any(|entry| entry.starts_with("link")));
    }

    #[test]
    fn a_new_copy_replaces_the_old_one_whole() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        let to = dir.path().join("to");
        write(&from, "old.txt", "1");
        replace_tree(&from, &to, DEFAULT_MAX_FILE_BYTES).unwrap();
        fs::remove_file(from.join("old.txt")).unwrap();
        write(&from, "new.txt", "2");
        replace_tree(&from, &to, DEFAULT_MAX_FILE_BYTES).unwrap();
        assert!(!to.join("old.txt").exists());
        assert_eq!(fs::read_to_string(to.join("new.txt")).unwrap(), "2");
        // The retired tree goes away in the background.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let leftovers: Vec<_> = fs::read_dir(dir.path())
                .unwrap()
                .map(|entry| entry.unwrap().file_name())
                .collect();
            if leftovers.len() == 2 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "staging or retired folders remain: {leftovers:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    #[test]
    fn a_missing_source_gives_an_empty_tree() {
        let dir = tempfile::tempdir().unwrap();
        let to = dir.path().join("to");
        let report = replace_tree(&dir.path().join("nothing"), &to, 10).unwrap();
        assert_eq!(report, CopyReport::default());
        assert!(to.is_dir());
    }
}
