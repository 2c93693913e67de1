//! (c) Snapshots, final-workspace copies and plan copies hold regular files only: a hard
//! link to an outside file and a symlink to the outside are left out, a link in the
//! destination is replaced rather than written through, and a directory swapped for a
//! link while a snapshot is taken never brings the outside in.

use std::fs;
use std::path::Path;

use massgen::workspace::{DEFAULT_MAX_FILE_BYTES, copy_tree, replace_tree};

use super::{SECRET, Swap, Swapper, Tree, listing};

fn plant_links(tree: &Tree) {
    fs::hard_link(tree.outside.join("file.txt"), tree.ws.join("hard.txt")).unwrap();
    std::os::unix::fs::symlink(tree.outside.join("file.txt"), tree.ws.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(&tree.outside, tree.ws.join("link_dir")).unwrap();
}

fn assert_regular_files_only(copy: &Path) {
    for (path, content) in listing(copy) {
        assert!(
            !content.contains(SECRET),
            "{} holds the secret",
            path.display()
        );
        assert!(
            !content.starts_with("link ->"),
            "{} is a link",
            path.display()
        );
    }
    assert!(!copy.join("hard.txt").exists(), "a hard link was copied");
    assert!(fs::symlink_metadata(copy.join("link.txt")).is_err());
    assert!(fs::symlink_metadata(copy.join("link_dir")).is_err());
}

#[test]
fn a_snapshot_leaves_out_hard_links_and_symlinks_to_the_outside() {
    let tree = Tree::new();
    plant_links(&tree);
    let snapshot = tree.root.join("snapshots/agent");
    let report = replace_tree(&tree.ws, &snapshot, DEFAULT_MAX_FILE_BYTES).unwrap();
    assert_regular_files_only(&snapshot);
    assert_eq!(
        fs::read_to_string(snapshot.join("dir/file.txt")).unwrap(),
        "inside\n"
    );
    for left_out in ["hard.txt", "link.txt", "link_dir"] {
        assert!(
            report
                .skipped
                .iter()
                .any(|entry| entry.starts_with(left_out)),
            "{left_out} not reported: {:?}",
            report.skipped
        );
    }
    // The final workspace and a peer's temporary copy are made the same way.
    let final_copy = tree.root.join("final/agent/workspace");
    replace_tree(&snapshot, &final_copy, DEFAULT_MAX_FILE_BYTES).unwrap();
    assert_regular_files_only(&final_copy);
}

#[test]
fn a_plan_copy_leaves_out_links_and_never_writes_through_one_in_its_destination() {
    let tree = Tree::new();
    plant_links(&tree);
    let frozen = tree.root.join("plan/frozen");
    fs::create_dir_all(&frozen).unwrap();
    copy_tree(&tree.ws, &frozen, DEFAULT_MAX_FILE_BYTES).unwrap();
    assert_regular_files_only(&frozen);
    // The frozen plan copied back into a workspace where the agent planted links named
    // like the plan's files and folders.
    let before = tree.outside_now();
    let workspace = tree.root.join("next_ws");
    fs::create_dir_all(&workspace).unwrap();
    std::os::unix::fs::symlink(&tree.outside, workspace.join("dir")).unwrap();
    std::os::unix::fs::symlink(tree.outside.join("file.txt"), workspace.join("mine.txt")).unwrap();
    copy_tree(&frozen, &workspace, DEFAULT_MAX_FILE_BYTES).unwrap();
    assert_eq!(tree.outside_now(), before, "the copy wrote through a link");
    assert_eq!(
        fs::read_to_string(workspace.join("mine.txt")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        fs::read_to_string(workspace.join("dir/file.txt")).unwrap(),
        "inside\n"
    );
    assert!(
        !fs::symlink_metadata(workspace.join("dir"))
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn a_directory_swapped_for_a_link_while_snapshots_are_taken_never_brings_the_outside_in() {
    let tree = Tree::new();
    let swapper = Swapper::start(&tree, Swap::Middle);
    for round in 0..300 {
        let snapshot = tree.root.join("snapshots/agent");
        replace_tree(&tree.ws, &snapshot, DEFAULT_MAX_FILE_BYTES).unwrap();
        for (path, content) in listing(&snapshot) {
            assert!(
                !content.contains(SECRET) && !path.ends_with(super::HIDDEN),
                "round {round}: {} came from the outside",
                path.display()
            );
        }
    }
    assert!(swapper.finish() > 100);
}
