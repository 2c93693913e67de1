//! (d) The component-wise `O_NOFOLLOW` walk (kernels without `openat2`) gives every file
//! tool the same answers as `openat2`, links planted or swapped in.

use massgen::workspace::beneath::force_component_walk;

use super::links::every_tool;
use super::{Swap, Swapper, Tree};

/// Each call's `(ok, output)` with both ways of opening, on one tree per way.
async fn answers(walk_only: bool, plant: Option<(&str, &str)>) -> Vec<(bool, String)> {
    let tree = Tree::new();
    if let Some((real, link)) = plant {
        let at = |rel: &str| tree.ws.join(rel);
        std::fs::rename(at(real), at(&format!("{real}_real"))).unwrap();
        std::fs::rename(at(link), at(real)).unwrap();
    }
    force_component_walk(walk_only);
    let mut out = Vec::new();
    for (tool, args) in every_tool() {
        let outcome = tree.call(tool, args).await;
        let shown: Vec<String> = outcome
            .outcome
            .output
            .replace(&tree.root.display().to_string(), "<root>")
            .lines()
            .filter(|line| {
                !["created:", "modified:", "accessed:"]
                    .iter()
                    .any(|t| line.starts_with(t))
            })
            .map(str::to_string)
            .collect();
        let shown = shown.join("\n");
        out.push((outcome.outcome.ok, shown));
    }
    force_component_walk(false);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fallback_walk_gives_the_same_answers_as_openat2() {
    for plant in [
        None,
        Some(("dir", "dir_swap")),
        Some(("dir/file.txt", "dir/file_swap")),
    ] {
        let by_openat2 = answers(false, plant).await;
        let by_walk = answers(true, plant).await;
        assert_eq!(by_openat2, by_walk, "planted: {plant:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fallback_walk_holds_against_a_swapper_too() {
    let tree = Tree::new();
    let before = tree.outside_now();
    force_component_walk(true);
    let swapper = Swapper::start(&tree, Swap::Middle);
    for _ in 0..100 {
        for (tool, args) in every_tool() {
            tree.call(tool, args).await;
        }
    }
    force_component_walk(false);
    assert!(swapper.finish() > 100);
    assert_eq!(tree.outside_now(), before);
    tree.assert_no_secret_inside();
}
