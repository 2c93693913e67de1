//! Where runs' logs are: `./.massgen/massgen_logs` (else `~/.massgen/massgen_logs`), its
//! `log_<timestamp>` runs newest first, and the attempt directory a path names.

use std::path::{Path, PathBuf};

/// The directory holding `log_*` runs.
pub fn logs_root(cwd: &Path) -> PathBuf {
    let local = cwd.join(".massgen").join("massgen_logs");
    if local.is_dir() {
        return local;
    }
    let home = std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".massgen").join("massgen_logs"))
        .filter(|dir| dir.is_dir());
    home.unwrap_or(local)
}

/// The `log_*` runs under `root`, newest first (their names are timestamps).
pub fn runs(root: &Path) -> Vec<PathBuf> {
    let mut runs: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir() && name_of(path).starts_with("log_"))
        .collect();
    runs.sort_by_key(|run| std::cmp::Reverse(name_of(run)));
    runs
}

/// The newest run, or `log_dir` as given.
pub fn run_dir(log_dir: Option<&Path>, root: &Path) -> Result<PathBuf, String> {
    match log_dir {
        Some(dir) if dir.is_dir() => Ok(dir.to_path_buf()),
        Some(dir) => Err(format!("{} is not a directory", dir.display())),
        None => runs(root).into_iter().next().ok_or_else(|| no_runs(root)),
    }
}

/// The attempt directory (the one holding `events.jsonl`) `log_dir` names — itself, or
/// the last attempt of its last turn — or, without one, that of the newest run.
pub fn attempt(log_dir: Option<&Path>, root: &Path) -> Result<PathBuf, String> {
    let Some(dir) = log_dir else {
        return runs(root)
            .iter()
            .find_map(|run| last_attempt(run))
            .ok_or_else(|| no_runs(root));
    };
    if !dir.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    last_attempt(dir).ok_or_else(|| {
        format!(
            "{} holds no run log (no events.jsonl in it or in its turn_N/attempt_N \
             directories)\n  help: pass a .massgen/massgen_logs/log_… directory",
            dir.display()
        )
    })
}

/// `dir` itself when it is an attempt, else its last `attempt_N` (under its last `turn_N`).
pub fn last_attempt(dir: &Path) -> Option<PathBuf> {
    // `exists`, not `is_file`: a log replaced by a FIFO or a device is refused by name
    // when it is read, rather than passed over.
    if dir.join("events.jsonl").exists() || dir.join("metrics_summary.json").exists() {
        return Some(dir.to_path_buf());
    }
    numbered(dir, "attempt_")
        .into_iter()
        .rev()
        .find_map(|attempt| last_attempt(&attempt))
        .or_else(|| {
            numbered(dir, "turn_")
                .into_iter()
                .rev()
                .find_map(|turn| last_attempt(&turn))
        })
}

/// The `turn_N` directories of a run, in turn order.
pub fn turns(run: &Path) -> Vec<PathBuf> {
    numbered(run, "turn_")
}

/// The `attempt_N` directories of a turn, in attempt order.
pub fn attempts(turn: &Path) -> Vec<PathBuf> {
    numbered(turn, "attempt_")
}

/// `prefix<N>` directories in `dir`, by N (so `turn_10` follows `turn_9`).
fn numbered(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .filter_map(|path| {
            let number = name_of(&path).strip_prefix(prefix)?.parse().ok()?;
            Some((number, path))
        })
        .collect();
    found.sort_by_key(|(number, _)| *number);
    found.into_iter().map(|(_, path)| path).collect()
}

pub fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn no_runs(root: &Path) -> String {
    format!(
        "no runs logged in {}\n  help: run massgen in this directory first, or pass --log-dir",
        root.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_attempt_of_the_last_turn_in_number_order() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("log_20260101_120000_000001");
        for turn in ["turn_2", "turn_10", "turn_9"] {
            let attempt = run.join(turn).join("attempt_1");
            std::fs::create_dir_all(&attempt).unwrap();
            std::fs::write(attempt.join("events.jsonl"), "").unwrap();
        }
        std::fs::create_dir_all(dir.path().join("log_20250101_120000_000001")).unwrap();
        assert_eq!(
            attempt(None, dir.path()).unwrap(),
            run.join("turn_10").join("attempt_1")
        );
        assert_eq!(
            attempt(Some(&run.join("turn_2")), dir.path()).unwrap(),
            run.join("turn_2").join("attempt_1")
        );
        assert_eq!(runs(dir.path())[0], run);
        assert!(attempt(Some(dir.path()), dir.path()).is_err());
    }
}
