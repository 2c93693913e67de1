//! Reading an agent's files for the workspace browser: a bounded listing of a directory
//! tree and a text preview of one file. Read when the browser opens or its choice changes,
//! never while drawing.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::workspace::SKIPPED_DIRS;

/// Most entries listed; a bigger tree says how many were left out.
const MAX_ENTRIES: usize = 2_000;
/// Most bytes of a file previewed.
const MAX_PREVIEW_BYTES: u64 = 64 * 1024;

/// Which of an agent's directories the browser shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FilesSource {
    /// Where the agent works now.
    #[default]
    Workspace,
    /// Its latest answer's snapshot.
    Snapshot,
    /// Its peers' snapshots, as it last saw them.
    Peers,
    /// The winner's final workspace in the turn's log.
    Final,
}

impl FilesSource {
    pub fn label(self) -> &'static str {
        match self {
            Self::Workspace => "workspace",
            Self::Snapshot => "latest snapshot",
            Self::Peers => "peers' work",
            Self::Final => "final (winner)",
        }
    }

    pub fn next(self) -> Self {
        match self {
            Self::Workspace => Self::Snapshot,
            Self::Snapshot => Self::Peers,
            Self::Peers => Self::Final,
            Self::Final => Self::Workspace,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    /// Relative to the listing's root.
    pub path: PathBuf,
    pub depth: usize,
    pub is_dir: bool,
    pub size: u64,
}

/// A directory tree as the browser shows it, with the selected file's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileListing {
    pub root: Option<PathBuf>,
    pub entries: Vec<FileEntry>,
    /// The tree has more entries than are listed.
    pub truncated: bool,
    pub preview: Vec<String>,
    /// Why there is nothing to show.
    pub note: Option<String>,
}

impl FileListing {
    pub fn note(text: impl Into<String>) -> Self {
        Self {
            note: Some(text.into()),
            ..Self::default()
        }
    }
}

/// Lists `root` (skipping version-control and dependency folders) and previews the entry
/// at `selected` when it is a file.
pub fn list(root: &Path, selected: usize) -> FileListing {
    if !root.is_dir() {
        return FileListing::note(format!("{} does not exist yet", root.display()));
    }
    let mut entries = Vec::new();
    let mut truncated = false;
    let walk = walkdir::WalkDir::new(root)
        .min_depth(1)
        .sort_by(|a, b| {
            (!a.file_type().is_dir(), a.file_name()).cmp(&(!b.file_type().is_dir(), b.file_name()))
        })
        .into_iter()
        .filter_entry(|entry| {
            !SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref())
        });
    for entry in walk.flatten() {
        if entries.len() >= MAX_ENTRIES {
            truncated = true;
            break;
        }
        let Ok(path) = entry.path().strip_prefix(root) else {
            continue;
        };
        entries.push(FileEntry {
            path: path.to_path_buf(),
            depth: entry.depth() - 1,
            is_dir: entry.file_type().is_dir(),
            size: entry.metadata().map_or(0, |meta| meta.len()),
        });
    }
    let preview = entries
        .get(selected)
        .filter(|entry| !entry.is_dir)
        .map(|entry| preview(&root.join(&entry.path)))
        .unwrap_or_default();
    FileListing {
        root: Some(root.to_path_buf()),
        note: entries.is_empty().then(|| "no files yet".to_string()),
        entries,
        truncated,
        preview,
    }
}

/// The first lines of a text file; binary files are named as such.
fn preview(path: &Path) -> Vec<String> {
    // Opening a pipe would wait for a writer, and freeze the screen.
    if !fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file()) {
        return vec!["(not a regular file)".to_string()];
    }
    // Swapped for a pipe since that check, it is still opened without waiting, then refused.
    let mut bytes = Vec::new();
    let read = crate::bounded_file::open_regular(path)
        .and_then(|file| file.take(MAX_PREVIEW_BYTES).read_to_end(&mut bytes));
    if let Err(error) = read {
        return vec![format!("cannot read {}: {error}", path.display())];
    }
    if bytes.iter().take(8_192).any(|byte| *byte == 0) {
        return vec!["(a binary file)".to_string()];
    }
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_directories_first_skips_dependencies_and_previews_the_selected_file() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("src")).unwrap();
        fs::create_dir_all(dir.path().join("node_modules/x")).unwrap();
        fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
        fs::write(dir.path().join("a.bin"), [0u8, 1, 2]).unwrap();
        fs::write(dir.path().join("README.md"), "# Hi\nthere\n").unwrap();
        let listing = list(dir.path(), 3);
        let names: Vec<String> = listing
            .entries
            .iter()
            .map(|entry| entry.path.display().to_string())
            .collect();
        assert_eq!(names, ["src", "src/main.rs", "README.md", "a.bin"]);
        assert_eq!(listing.preview, ["(a binary file)"]);
        assert_eq!(list(dir.path(), 2).preview, ["# Hi", "there"]);
        assert!(list(dir.path(), 0).preview.is_empty(), "a directory");
        assert!(list(&dir.path().join("nope"), 0).note.is_some());
    }
}
