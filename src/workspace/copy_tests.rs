//! Tests of copying workspace trees: what is copied, what is left out, and links.

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
