//! The workspace_tools server: copy, delete, compare.

use std::fs;

use serde_json::json;

use super::{call, failed, ok, refused, tools};
use crate::tools::permissions::fixture::Fixture;

#[tokio::test]
async fn copy_file_brings_a_peers_file_into_the_workspace() {
    let f = Fixture::new();
    let tools = tools(&f);
    let peer = f.at("peers/agent1/ans.txt");
    let copied = call(
        &tools,
        "copy_file",
        json!({"source_path": peer, "destination_path": "from_peer/ans.txt"}),
    )
    .await;
    assert!(ok(&copied).contains("12 bytes"));
    assert_eq!(
        fs::read_to_string(f.ws.join("from_peer/ans.txt")).unwrap(),
        "peer answer\n"
    );
    let again = call(
        &tools,
        "copy_file",
        json!({"source": peer, "destination": "from_peer/ans.txt"}),
    )
    .await;
    assert!(failed(&again).contains("overwrite: true"));
    ok(&call(
        &tools,
        "copy_file",
        json!({"source": "mine.txt", "destination": "from_peer/ans.txt", "overwrite": true}),
    )
    .await);
    assert_eq!(
        fs::read_to_string(f.ws.join("from_peer/ans.txt")).unwrap(),
        "mine\n"
    );
    // Copies count as created, so they may be deleted.
    ok(&call(&tools, "delete_file", json!({"path": "from_peer/ans.txt"})).await);
    let missing = call(
        &tools,
        "copy_file",
        json!({"source_path": "nope", "destination_path": "x"}),
    )
    .await;
    assert!(failed(&missing).contains("does not exist"));
    let no_destination = call(&tools, "copy_file", json!({"source_path": "mine.txt"})).await;
    assert!(failed(&no_destination).contains("`destination_path`"));
}

#[tokio::test]
async fn copy_file_copies_directories_without_their_symlinks() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::create_dir_all(f.ws.join("sub/deeper")).unwrap();
    fs::write(f.ws.join("sub/deeper/b.txt"), "b").unwrap();
    std::os::unix::fs::symlink(f.root.join("outside/secret.txt"), f.ws.join("sub/leak")).unwrap();
    let copied = call(
        &tools,
        "copy_file",
        json!({"source_path": "sub", "destination_path": "copy"}),
    )
    .await;
    let text = ok(&copied);
    assert!(text.contains("(2 files)") && text.contains("1 symbolic links were not copied"));
    assert_eq!(
        fs::read_to_string(f.ws.join("copy/deeper/b.txt")).unwrap(),
        "b"
    );
    assert!(fs::symlink_metadata(f.ws.join("copy/leak")).is_err());
    let into_itself = call(
        &tools,
        "copy_file",
        json!({"source_path": "sub", "destination_path": "sub/again"}),
    )
    .await;
    assert!(failed(&into_itself).contains("into itself"));
    // The whole copy was created by the agent, so it may replace it.
    ok(&call(
        &tools,
        "copy_file",
        json!({"source_path": "sub", "destination_path": "copy", "overwrite": true}),
    )
    .await);
}

#[tokio::test]
async fn copy_file_with_a_hard_linked_file_inside_copies_nothing() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::hard_link(f.root.join("outside/secret.txt"), f.ws.join("sub/linked")).unwrap();
    let copied = call(
        &tools,
        "copy_file",
        json!({"source_path": "sub", "destination_path": "copy"}),
    )
    .await;
    assert!(refused(&copied).contains("hard links"));
    assert!(!f.ws.join("copy").exists());
}

#[tokio::test]
async fn delete_file_needs_a_read_and_recursive_for_directories() {
    let f = Fixture::new();
    let tools = tools(&f);
    let unread = call(&tools, "delete_file", json!({"path": "sub/a.txt"})).await;
    assert!(refused(&unread).contains("Read it first"));
    ok(&call(&tools, "read_text_file", json!({"path": "sub/a.txt"})).await);
    let not_recursive = call(&tools, "delete_file", json!({"path": "sub"})).await;
    assert!(failed(&not_recursive).contains("recursive: true"));
    ok(&call(
        &tools,
        "delete_file",
        json!({"path": "sub", "recursive": true}),
    )
    .await);
    assert!(!f.ws.join("sub").exists());
    ok(&call(&tools, "create_directory", json!({"path": "empty"})).await);
    ok(&call(&tools, "delete_file", json!({"path": "empty"})).await);
    let missing = call(&tools, "delete_file", json!({"path": "gone.txt"})).await;
    assert!(failed(&missing).contains("does not exist"));
}

#[tokio::test]
async fn delete_file_removes_a_symlink_not_its_target() {
    let f = Fixture::new();
    let tools = tools(&f);
    ok(&call(&tools, "read_text_file", json!({"path": "inner_link"})).await);
    ok(&call(&tools, "delete_file", json!({"path": "inner_link"})).await);
    assert!(fs::symlink_metadata(f.ws.join("inner_link")).is_err());
    assert_eq!(fs::read_to_string(f.ws.join("mine.txt")).unwrap(), "mine\n");
}

#[tokio::test]
async fn context_writes_allow_the_presenter_to_change_write_context_paths() {
    let f = Fixture::new();
    let tools = tools(&f);
    let before = call(
        &tools,
        "write_file",
        json!({"path": f.at("ctx_w/notes.md"), "content": "new"}),
    )
    .await;
    assert!(refused(&before).contains("final presentation"));
    f.policy.set_context_writes(true);
    ok(&call(
        &tools,
        "write_file",
        json!({"path": f.at("ctx_w/notes.md"), "content": "new"}),
    )
    .await);
    ok(&call(
        &tools,
        "write_file",
        json!({"path": f.at("ctx_file/only.txt"), "content": "one"}),
    )
    .await);
    f.policy.set_context_writes(false);
    assert_eq!(
        fs::read_to_string(f.root.join("ctx_w/notes.md")).unwrap(),
        "new"
    );
    assert_eq!(
        fs::read_to_string(f.root.join("ctx_file/only.txt")).unwrap(),
        "one"
    );
}

#[tokio::test]
async fn compare_files_shows_a_line_diff() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::write(f.ws.join("a.txt"), "one\ntwo\nthree\n").unwrap();
    fs::write(f.ws.join("b.txt"), "one\n2\nthree\nfour\n").unwrap();
    let same = call(
        &tools,
        "compare_files",
        json!({"file1": "a.txt", "file2": "a.txt"}),
    )
    .await;
    assert!(ok(&same).contains("identical"));
    let diff = call(
        &tools,
        "compare_files",
        json!({"file1": "a.txt", "file2": "b.txt"}),
    )
    .await;
    let text = ok(&diff);
    assert!(text.starts_with("2 lines added, 1 removed."));
    assert!(text.contains("-two\n+2\n") && text.contains("+four"));
    fs::write(f.ws.join("bin"), b"\0\0").unwrap();
    let binary = call(
        &tools,
        "compare_files",
        json!({"file1": "a.txt", "file2": "bin"}),
    )
    .await;
    assert!(failed(&binary).contains("binary"));
    let outside = call(
        &tools,
        "compare_files",
        json!({"file1": "a.txt", "file2": "link_file"}),
    )
    .await;
    refused(&outside);
}

#[tokio::test]
async fn compare_directories_lists_differences() {
    let f = Fixture::new();
    let tools = tools(&f);
    for (path, content) in [
        ("l/same.txt", "s"),
        ("l/diff.txt", "1\n"),
        ("l/left.txt", ""),
        ("r/same.txt", "s"),
        ("r/diff.txt", "2\n"),
        ("r/right.txt", ""),
    ] {
        fs::create_dir_all(f.ws.join(path).parent().unwrap()).unwrap();
        fs::write(f.ws.join(path), content).unwrap();
    }
    std::os::unix::fs::symlink(f.root.join("outside/secret.txt"), f.ws.join("l/leak")).unwrap();
    std::os::unix::fs::symlink(f.root.join("outside/hard_src.txt"), f.ws.join("r/leak")).unwrap();
    let compared = call(
        &tools,
        "compare_directories",
        json!({"dir1": "l", "dir2": "r", "show_content_diff": true}),
    )
    .await;
    let text = ok(&compared);
    assert!(
        text.contains("1 identical, 2 differing, 1 only in left, 1 only in right"),
        "{text}"
    );
    assert!(
        text.contains("Only in left:\n  left.txt") && text.contains("Only in right:\n  right.txt")
    );
    assert!(text.contains("-1\n+2"));
    assert!(
        !text.contains("secret") && !text.contains("shared inode"),
        "{text}"
    );
    let not_dir = call(
        &tools,
        "compare_directories",
        json!({"dir1": "l", "dir2": "mine.txt"}),
    )
    .await;
    assert!(failed(&not_dir).contains("not a directory"));
}
