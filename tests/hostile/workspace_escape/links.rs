//! (b) Every file tool, with a link to the outside in the middle of the path and as its
//! last part: planted before the call, and swapped in and out while the calls run.

use serde_json::{Value, json};

use super::{Swap, Swapper, Tree};

/// Rounds of every call under each swapper.
const ROUNDS: usize = 150;

/// One call of every file tool on `dir/…` paths; repeatable, and each would reach the
/// outside if `dir` or `dir/file.txt` were followed to it.
pub(super) fn every_tool() -> Vec<(&'static str, Value)> {
    vec![
        ("read_text_file", json!({"path": "dir/file.txt"})),
        ("read_text_file", json!({"path": "dir/file.txt", "tail": 5})),
        (
            "read_multiple_files",
            json!({"paths": ["dir/file.txt", "mine.txt"]}),
        ),
        ("get_file_info", json!({"path": "dir/file.txt"})),
        ("list_directory", json!({"path": "dir"})),
        ("directory_tree", json!({"path": "dir"})),
        ("search_files", json!({"path": "dir", "pattern": "*"})),
        ("search_files", json!({"path": ".", "pattern": "**/*.txt"})),
        (
            "compare_files",
            json!({"file1": "mine.txt", "file2": "dir/file.txt"}),
        ),
        (
            "compare_directories",
            json!({"dir1": "sub", "dir2": "dir", "show_content_diff": true}),
        ),
        (
            "write_file",
            json!({"path": "dir/file.txt", "content": "inside\n"}),
        ),
        (
            "write_file",
            json!({"path": "dir/new/planted.txt", "content": "planted"}),
        ),
        (
            "edit_file",
            json!({"path": "dir/file.txt", "edits": [{"oldText": "TOP-SECRET", "newText": "OWNED"}]}),
        ),
        (
            "edit_file",
            json!({"path": "dir/file.txt", "edits": [{"oldText": "inside", "newText": "inside"}]}),
        ),
        ("create_directory", json!({"path": "dir/made/deeper"})),
        (
            "copy_file",
            json!({"source": "dir/file.txt", "destination": "copied.txt", "overwrite": true}),
        ),
        (
            "copy_file",
            json!({"source": "mine.txt", "destination": "dir/planted_copy.txt", "overwrite": true}),
        ),
        (
            "copy_file",
            json!({"source": "dir", "destination": "dir_copy", "overwrite": true}),
        ),
        (
            "copy_file",
            json!({"source": "sub", "destination": "dir/sub_copy", "overwrite": true}),
        ),
        (
            "move_file",
            json!({"source": "dir/file.txt", "destination": "moved.txt"}),
        ),
        (
            "move_file",
            json!({"source": "moved.txt", "destination": "dir/file.txt"}),
        ),
        (
            "write_file",
            json!({"path": "dir/gone.txt", "content": "to delete"}),
        ),
        ("delete_file", json!({"path": "dir/gone.txt"})),
        (
            "delete_file",
            json!({"path": "dir/made", "recursive": true}),
        ),
        ("delete_file", json!({"path": "dir/new", "recursive": true})),
    ]
}

/// Runs every call `rounds` times; after each round nothing outside has changed. The
/// caller checks the workspace for the secret once any swapper has stopped (a listing taken
/// mid-swap would walk through the link itself).
async fn every_call(tree: &Tree, rounds: usize) {
    let before = tree.outside_now();
    for round in 0..rounds {
        for (tool, args) in every_tool() {
            tree.call(tool, args.clone()).await;
            assert_eq!(
                tree.outside_now(),
                before,
                "round {round}: {tool} {args} reached the outside"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_planted_in_the_middle_or_at_the_end_of_a_path_are_never_followed_out() {
    for (real, link) in [("dir", "dir_swap"), ("dir/file.txt", "dir/file_swap")] {
        let tree = Tree::new();
        let at = |rel: &str| tree.ws.join(rel);
        std::fs::rename(at(real), at(&format!("{real}_real"))).unwrap();
        std::fs::rename(at(link), at(real)).unwrap();
        every_call(&tree, 1).await;
        tree.assert_no_secret_inside();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_swapped_for_a_link_mid_call_never_lets_any_file_tool_out() {
    let tree = Tree::new();
    let swapper = Swapper::start(&tree, Swap::Middle);
    every_call(&tree, ROUNDS).await;
    assert!(swapper.finish() > 100);
    tree.assert_no_secret_inside();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_swapped_for_a_link_mid_call_never_lets_any_file_tool_out() {
    let tree = Tree::new();
    let swapper = Swapper::start(&tree, Swap::Last);
    every_call(&tree, ROUNDS).await;
    assert!(swapper.finish() > 100);
    tree.assert_no_secret_inside();
}
