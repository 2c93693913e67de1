//! The files an agent has read or created, for read-before-delete.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use walkdir::WalkDir;

use super::refusal::Problem;

#[derive(Debug, Default)]
pub(super) struct Ledger {
    known: Mutex<HashSet<PathBuf>>,
}

impl Ledger {
    fn known(&self) -> MutexGuard<'_, HashSet<PathBuf>> {
        // A panic while holding the lock cannot leave the set half-updated.
        self.known
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn record(&self, path: &Path) {
        self.known().insert(path.to_path_buf());
    }

    /// Everything known under `from` (or `from` itself) is known under `to` as well.
    pub(super) fn record_moved(&self, from: &Path, to: &Path) {
        let mut known = self.known();
        let moved: Vec<PathBuf> = known
            .iter()
            .filter_map(|path| path.strip_prefix(from).ok())
            .map(|rest| {
                if rest.as_os_str().is_empty() {
                    to.to_path_buf()
                } else {
                    to.join(rest)
                }
            })
            .collect();
        known.extend(moved);
    }

    pub(super) fn knows(&self, path: &Path) -> bool {
        self.known().contains(path)
    }

    /// Every file (and symlink) under `dir` must be known; the first that is not is named.
    pub(super) fn check_tree(&self, dir: &Path) -> Result<(), Problem> {
        let known = self.known();
        for item in WalkDir::new(dir).follow_links(false).min_depth(1) {
            let item = item.map_err(|_| Problem::Unlistable {
                dir: dir.to_path_buf(),
            })?;
            if item.file_type().is_dir() {
                continue;
            }
            if !known.contains(item.path()) {
                return Err(Problem::NotRead {
                    file: item.path().to_path_buf(),
                });
            }
        }
        Ok(())
    }
}
