//! (a) A swapper flips `ws/dir` between the real directory and a link to the outside while
//! the agent writes and reads a file inside it thousands of times: nothing is ever written
//! or read outside.

use serde_json::json;

use super::{Swap, Swapper, Tree};

const ROUNDS: usize = 2000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_swapped_for_a_link_never_lets_write_file_or_read_text_file_out() {
    let tree = Tree::new();
    let before = tree.outside_now();
    let swapper = Swapper::start(&tree, Swap::Middle);
    let (mut wrote, mut read) = (0usize, 0usize);
    for round in 0..ROUNDS {
        let content = format!("round {round}\n");
        let written = tree
            .call(
                "write_file",
                json!({"path": "dir/file.txt", "content": content}),
            )
            .await;
        wrote += usize::from(written.outcome.ok);
        let created = tree
            .call(
                "write_file",
                json!({"path": "dir/planted.txt", "content": "planted"}),
            )
            .await;
        wrote += usize::from(created.outcome.ok);
        let shown = tree
            .call("read_text_file", json!({"path": "dir/file.txt"}))
            .await;
        read += usize::from(shown.outcome.ok);
        assert_eq!(
            tree.outside_now(),
            before,
            "round {round} reached the outside"
        );
    }
    let swaps = swapper.finish();
    assert!(swaps > 100, "the swapper hardly ran ({swaps} swaps)");
    assert!(
        wrote > 0 && read > 0,
        "no call got through: {wrote} writes, {read} reads"
    );
    assert_eq!(tree.outside_now(), before);
    assert!(tree.read("ws/dir/file.txt").starts_with("round "));
    tree.assert_no_secret_inside();
}
