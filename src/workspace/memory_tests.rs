//! Memory files: the layout, reading, MassGen's restore and merge, and links left alone.

use std::fs;
use std::path::Path;

use super::*;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn create_dirs_makes_both_tiers() {
    let dir = tempfile::tempdir().unwrap();
    create_dirs(dir.path()).unwrap();
    assert!(dir.path().join("memory/short_term").is_dir());
    assert!(dir.path().join("memory/long_term").is_dir());
    // Again: existing directories are fine.
    create_dirs(dir.path()).unwrap();
}

#[test]
fn read_all_lists_markdown_by_tier_and_name() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "memory/long_term/analysis.md", "long");
    write(dir.path(), "memory/short_term/zeta.md", "z");
    write(dir.path(), "memory/short_term/alpha.md", "a");
    write(dir.path(), "memory/short_term/notes.txt", "not markdown");
    let files = read_all(dir.path()).unwrap();
    let names: Vec<(Tier, &str)> = files.iter().map(|f| (f.tier, f.name.as_str())).collect();
    assert_eq!(
        names,
        [
            (Tier::ShortTerm, "alpha"),
            (Tier::ShortTerm, "zeta"),
            (Tier::LongTerm, "analysis")
        ]
    );
    assert!(read_all(&dir.path().join("missing")).unwrap().is_empty());
    assert_eq!(
        list(dir.path()).unwrap(),
        [
            "memory/short_term/alpha.md",
            "memory/short_term/zeta.md",
            "memory/long_term/analysis.md"
        ]
    );
}

#[test]
fn front_matter_gives_description_and_body() {
    let file = MemoryFile {
        tier: Tier::LongTerm,
        name: "prefs".into(),
        text: "---\nname: prefs\ndescription: What the user likes\n---\n\n## Body\n".into(),
    };
    assert_eq!(file.description(), Some("What the user likes"));
    assert_eq!(file.body(), "## Body");
    let plain = MemoryFile {
        text: "just text\n".into(),
        ..file
    };
    assert_eq!(plain.description(), None);
    assert_eq!(plain.body(), "just text");
}

#[test]
fn restore_replaces_files_of_the_same_name_and_keeps_others() {
    let from = tempfile::tempdir().unwrap();
    let to = tempfile::tempdir().unwrap();
    write(from.path(), "memory/short_term/prefs.md", "new prefs");
    write(from.path(), "memory/long_term/deep.md", "deep");
    write(to.path(), "memory/short_term/prefs.md", "old prefs");
    write(to.path(), "memory/short_term/mine.md", "mine");
    assert_eq!(restore(from.path(), to.path()).unwrap(), 2);
    let read = |rel: &str| fs::read_to_string(to.path().join(rel)).unwrap();
    assert_eq!(read("memory/short_term/prefs.md"), "new prefs");
    assert_eq!(read("memory/short_term/mine.md"), "mine");
    assert_eq!(read("memory/long_term/deep.md"), "deep");
}

#[test]
fn merge_appends_same_names_under_the_peer_and_copies_new_ones() {
    let winner = tempfile::tempdir().unwrap();
    let peer = tempfile::tempdir().unwrap();
    write(winner.path(), "memory/short_term/notes.md", "winner notes");
    write(peer.path(), "memory/short_term/notes.md", "peer notes");
    write(
        peer.path(),
        "memory/long_term/only_peer.md",
        "peer analysis",
    );
    assert_eq!(merge_into(winner.path(), "bob", peer.path()).unwrap(), 2);
    let read = |rel: &str| fs::read_to_string(winner.path().join(rel)).unwrap();
    assert_eq!(
        read("memory/short_term/notes.md"),
        "winner notes\n\n---\n\n# From Agent bob\n\npeer notes"
    );
    assert_eq!(read("memory/long_term/only_peer.md"), "peer analysis");
}

#[test]
fn links_are_not_memories_and_are_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.md", "secret");
    create_dirs(dir.path()).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.md"),
        dir.path().join("memory/short_term/leak.md"),
    )
    .unwrap();
    assert!(read_all(dir.path()).unwrap().is_empty());

    let from = tempfile::tempdir().unwrap();
    write(from.path(), "memory/short_term/leak.md", "overwrite");
    assert!(restore(from.path(), dir.path()).is_err());
    assert_eq!(
        fs::read_to_string(outside.path().join("secret.md")).unwrap(),
        "secret"
    );
}

#[test]
fn oversized_files_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(usize::try_from(MAX_MEMORY_FILE_BYTES).unwrap() + 1);
    write(dir.path(), "memory/short_term/big.md", &big);
    assert!(read_all(dir.path()).unwrap().is_empty());
}
