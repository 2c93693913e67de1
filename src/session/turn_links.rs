//! Links from a session's `turn_N/` to what the turn's log directory holds: its
//! `events.jsonl`, the winner's `workspace/`, and — for a turn that ended without one —
//! every agent's `workspaces/`. Relative links, so a moved project keeps them.

use std::io;
use std::path::{Path, PathBuf};

/// Links `turn_dir/<name>` to each of `names` under `log_dir` that exists; `winner` adds
/// `workspace` → `final/<winner>/workspace`.
pub fn link_turn_files(turn_dir: &Path, log_dir: &Path, winner: Option<&str>) -> io::Result<()> {
    let mut links: Vec<(&str, PathBuf)> = vec![
        ("events.jsonl", log_dir.join("events.jsonl")),
        ("workspaces", log_dir.join("workspaces")),
    ];
    if let Some(winner) = winner {
        links.push((
            "workspace",
            log_dir.join("final").join(winner).join("workspace"),
        ));
    }
    for (name, target) in links {
        if target.exists() {
            replace_link(&turn_dir.join(name), &relative_to(turn_dir, &target))?;
        }
    }
    Ok(())
}

/// `target` as seen from `dir`, when both lie under one `.massgen` directory
/// (`sessions/<id>/turn_N` is three levels below it); else `target` itself.
fn relative_to(dir: &Path, target: &Path) -> PathBuf {
    let Some(massgen_dir) = dir.ancestors().nth(3) else {
        return target.to_path_buf();
    };
    match target.strip_prefix(massgen_dir) {
        Ok(inside) => Path::new("../../..").join(inside),
        Err(_) => target.to_path_buf(),
    }
}

#[cfg(unix)]
fn replace_link(link: &Path, target: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(link) {
        Ok(metadata) if metadata.file_type().is_symlink() => std::fs::remove_file(link)?,
        Ok(_) => return Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn replace_link(_link: &Path, _target: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_what_the_log_holds_relative_to_the_massgen_dir() {
        let root = tempfile::tempdir().unwrap();
        let massgen = root.path().join(".massgen");
        let turn_dir = massgen.join("sessions/session_1/turn_2");
        let log_dir = massgen.join("massgen_logs/log_1/turn_2/attempt_1");
        std::fs::create_dir_all(&turn_dir).unwrap();
        std::fs::create_dir_all(log_dir.join("final/a/workspace")).unwrap();
        std::fs::write(log_dir.join("events.jsonl"), "{}\n").unwrap();
        std::fs::write(log_dir.join("final/a/workspace/notes.md"), "kept").unwrap();

        link_turn_files(&turn_dir, &log_dir, Some("a")).unwrap();
        link_turn_files(&turn_dir, &log_dir, Some("a")).unwrap();

        assert_eq!(
            std::fs::read_link(turn_dir.join("events.jsonl")).unwrap(),
            Path::new("../../../massgen_logs/log_1/turn_2/attempt_1/events.jsonl")
        );
        assert_eq!(
            std::fs::read_to_string(turn_dir.join("workspace/notes.md")).unwrap(),
            "kept"
        );
        assert!(
            !turn_dir.join("workspaces").exists(),
            "nothing to link when every agent's work went into the winner's"
        );
    }
}
