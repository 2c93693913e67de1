//! Plan directories on disk: replacing one with a copy of another through a scratch
//! directory, removing trees and files that may be absent, and flushing a tree to disk.

use std::fs::{self, File};
use std::io;
use std::path::Path;

use walkdir::WalkDir;

use crate::workspace::{DEFAULT_MAX_FILE_BYTES, copy_tree};

/// Replaces `dest` with a copy of `source`, built in `scratch` and renamed into place.
pub(super) fn replace_dir(source: &Path, dest: &Path, scratch: &Path) -> io::Result<()> {
    remove_tree(scratch)?;
    let staged = scratch.join("new");
    fs::create_dir_all(&staged)?;
    let result = copy_tree(source, &staged, DEFAULT_MAX_FILE_BYTES)
        .and_then(|_| sync_tree(&staged))
        .and_then(|()| swap_in(&staged, dest, &scratch.join("old")));
    let _ = remove_tree(scratch);
    result
}

/// Renames `staged` to `dest`, moving an existing `dest` to `retired` first.
pub(super) fn swap_in(staged: &Path, dest: &Path, retired: &Path) -> io::Result<()> {
    if dest.exists() {
        remove_tree(retired)?;
        fs::rename(dest, retired)?;
    }
    fs::rename(staged, dest)
}

pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
    match fs::remove_dir_all(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        Ok(()) | Err(_) => Ok(()),
    }
}

pub(super) fn remove_file_if_present(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        Ok(()) | Err(_) => Ok(()),
    }
}

/// Flushes every file under `root` to disk, and the directories where the platform allows.
pub(super) fn sync_tree(root: &Path) -> io::Result<()> {
    for entry in WalkDir::new(root).follow_links(false) {
        let entry = entry.map_err(io::Error::other)?;
        if entry.file_type().is_file() {
            File::open(entry.path())?.sync_all()?;
        } else if entry.file_type().is_dir() {
            sync_dir(entry.path());
        }
    }
    Ok(())
}

pub(super) fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}
