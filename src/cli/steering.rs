//! `--inbox-dir`: the steering inbox a run's turns poll, made if missing and made absolute.

use std::path::{Path, PathBuf};

use super::args::Args;

/// The inbox `--inbox-dir` (or `MASSGEN_RUNTIME_INBOX_DIR`) names, relative to `cwd`,
/// created if it does not exist; `None` when none was asked for.
pub fn open_inbox(args: &Args, cwd: &Path) -> Result<Option<PathBuf>, String> {
    let Some(asked) = &args.inbox_dir else {
        return Ok(None);
    };
    let dir = cwd.join(asked);
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::canonicalize(&dir))
        .map(Some)
        .map_err(|error| {
            format!(
                "--inbox-dir {}: cannot make the directory ({error})",
                crate::sanitize::escape_for_terminal(&asked.display().to_string())
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn a_relative_inbox_is_made_under_the_working_directory() {
        let cwd = tempfile::tempdir().unwrap();
        let args = Args::try_parse_from(["massgen", "--inbox-dir", "steer/in", "q"]).unwrap();
        let dir = open_inbox(&args, cwd.path()).unwrap().unwrap();
        assert!(dir.is_absolute() && dir.is_dir());
        assert!(dir.ends_with("steer/in"));
    }

    #[test]
    fn a_file_in_the_way_is_an_error_naming_the_flag() {
        let cwd = tempfile::tempdir().unwrap();
        std::fs::write(cwd.path().join("taken"), "").unwrap();
        let args = Args::try_parse_from(["massgen", "--inbox-dir", "taken", "q"]).unwrap();
        let error = open_inbox(&args, cwd.path()).unwrap_err();
        assert!(error.starts_with("--inbox-dir taken"), "{error}");
    }
}
