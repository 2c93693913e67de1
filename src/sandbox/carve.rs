//! Read grants with holes: Landlock only allows, so a directory readable except for some
//! paths below it is granted as its entries, down the path to each hole, the holes left out.

use std::path::{Path, PathBuf};

/// What to grant so that everything below `root` is covered except `holes` (and symbolic
/// links on the way down, which a grant would follow to their targets).
pub(super) fn without(root: &Path, holes: &[PathBuf]) -> Vec<PathBuf> {
    let inside: Vec<&PathBuf> = holes.iter().filter(|hole| hole.starts_with(root)).collect();
    if inside.is_empty() {
        return vec![root.to_path_buf()];
    }
    if inside.iter().any(|hole| hole.as_path() == root) {
        return Vec::new();
    }
    // A directory that cannot be listed is not granted at all: the safe side.
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| !kind.is_symlink()))
        .flat_map(|entry| without(&entry.path(), holes))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_cut_out_and_the_rest_granted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for path in ["a/secret", "a/kept/deep", "b"] {
            std::fs::create_dir_all(root.join(path)).unwrap();
        }
        std::fs::write(root.join("a/file"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/", root.join("a/link")).unwrap();
        assert_eq!(without(&root, &[]), std::slice::from_ref(&root));
        assert_eq!(
            without(&root.join("b"), &[root.join("a")]),
            [root.join("b")]
        );
        assert!(without(&root, std::slice::from_ref(&root)).is_empty());
        let mut granted = without(&root, &[root.join("a/secret")]);
        granted.sort();
        assert_eq!(
            granted,
            [root.join("a/file"), root.join("a/kept"), root.join("b")]
        );
    }
}
