//! Turning a path as written into the path the filesystem will touch: lexical clean-up
//! first, then symlinks resolved through the nearest part that exists.

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::refusal::Problem;

/// Refuses forms that are never meant, then joins relative paths to `workspace` and
/// removes `.` and `..` without touching the filesystem.
pub(super) fn lexical(raw: &str, workspace: &Path) -> Result<PathBuf, Problem> {
    if raw.contains('\0') {
        return Err(Problem::Nul);
    }
    if raw.trim().is_empty() {
        return Err(Problem::Empty);
    }
    if raw.starts_with('~') {
        return Err(Problem::Home);
    }
    let path = Path::new(raw);
    if path.is_absolute() {
        Ok(normalize(path))
    } else {
        Ok(normalize(&workspace.join(path)))
    }
}

/// `.` dropped and `..` applied to what comes before it; `..` at the root stays at the root.
pub(super) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(prefix) => out.push(prefix.as_os_str()),
            Component::RootDir => out.push(Component::RootDir.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => out.push(name),
        }
    }
    out
}

/// The nearest existing ancestor resolved through every symlink, with the parts that do not
/// exist yet appended as written. A symlink that cannot be followed (dangling or looping)
/// is refused, since whatever is created through it would land at its target.
pub(super) fn canonical(path: &Path) -> Result<PathBuf, Problem> {
    let mut existing = path;
    let mut missing: Vec<OsString> = Vec::new();
    loop {
        match std::fs::symlink_metadata(existing) {
            Ok(_) => break,
            Err(error)
                if matches!(error.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) =>
            {
                let (Some(name), Some(parent)) = (existing.file_name(), existing.parent()) else {
                    return Err(Problem::Unresolvable);
                };
                missing.push(name.to_os_string());
                existing = parent;
            }
            Err(_) => return Err(Problem::Unresolvable),
        }
    }
    let mut resolved = std::fs::canonicalize(existing).map_err(|_| Problem::Unresolvable)?;
    for name in missing.iter().rev() {
        resolved.push(name);
    }
    Ok(resolved)
}

/// The path itself with only its parent resolved: what unlinking or renaming acts on.
pub(super) fn entry(path: &Path) -> Result<PathBuf, Problem> {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => Ok(canonical(parent)?.join(name)),
        _ => canonical(path),
    }
}

/// `path` with its last part followed if that part is a symlink.
pub(super) fn follow(entry: &Path) -> Result<PathBuf, Problem> {
    match std::fs::symlink_metadata(entry) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(entry).map_err(|_| Problem::Unresolvable)
        }
        Ok(_) | Err(_) => Ok(entry.to_path_buf()),
    }
}
