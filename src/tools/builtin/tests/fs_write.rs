//! The filesystem server's writing tools.

use std::fs;

use serde_json::json;

use super::{call, failed, ok, refused, tools};
use crate::tools::permissions::fixture::Fixture;

#[tokio::test]
async fn write_file_creates_parents_and_the_file_may_then_be_deleted() {
    let f = Fixture::new();
    let tools = tools(&f);
    let wrote = call(
        &tools,
        "write_file",
        json!({"path": "new/dir/out.md", "content": "hello"}),
    )
    .await;
    assert!(ok(&wrote).contains("5 bytes"));
    assert_eq!(
        fs::read_to_string(f.ws.join("new/dir/out.md")).unwrap(),
        "hello"
    );
    ok(&call(&tools, "delete_file", json!({"path": "new/dir/out.md"})).await);
    let dir = call(&tools, "write_file", json!({"path": "sub", "content": "x"})).await;
    assert!(failed(&dir).contains("is a directory"));
}

#[tokio::test]
async fn edit_file_replaces_exact_text_and_returns_a_diff() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::write(f.ws.join("code.py"), "a = 1\nb = 2\nc = 3\n").unwrap();
    let edits = json!([{"oldText": "b = 2", "newText": "b = 20"}, {"oldText": "c = 3\n", "newText": "c = 30\nd = 4\n"}]);
    let dry = call(
        &tools,
        "edit_file",
        json!({"path": "code.py", "edits": edits, "dryRun": true}),
    )
    .await;
    let diff = ok(&dry);
    assert!(
        diff.contains("\n-b = 2\n") && diff.contains("\n+b = 20\n") && diff.contains("\n+d = 4\n")
    );
    assert!(
        diff.contains("\n a = 1\n"),
        "context lines are kept: {diff}"
    );
    assert!(ok(&dry).contains("dry run"));
    assert_eq!(
        fs::read_to_string(f.ws.join("code.py")).unwrap(),
        "a = 1\nb = 2\nc = 3\n"
    );
    let done = call(
        &tools,
        "edit_file",
        json!({"path": "code.py", "edits": edits}),
    )
    .await;
    assert!(ok(&done).starts_with("```diff\n--- code.py\n+++ code.py"));
    assert_eq!(
        fs::read_to_string(f.ws.join("code.py")).unwrap(),
        "a = 1\nb = 20\nc = 30\nd = 4\n"
    );
}

#[tokio::test]
async fn edit_file_needs_each_old_text_to_match_once() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::write(f.ws.join("twice.txt"), "x\nx\n").unwrap();
    let many = call(
        &tools,
        "edit_file",
        json!({"path": "twice.txt", "edits": [{"oldText": "x", "newText": "y"}]}),
    )
    .await;
    assert!(failed(&many).contains("matches 2 places"));
    let none = call(
        &tools,
        "edit_file",
        json!({"path": "twice.txt", "edits": [{"oldText": "z", "newText": "y"}]}),
    )
    .await;
    assert!(failed(&none).contains("was not found"));
    let partial = call(&tools, "edit_file", json!({"path": "twice.txt", "edits": [{"oldText": "x\nx", "newText": "y"}, {"oldText": "q", "newText": "r"}]})).await;
    assert!(failed(&partial).contains("Edit 2"));
    assert_eq!(
        fs::read_to_string(f.ws.join("twice.txt")).unwrap(),
        "x\nx\n"
    );
    let shape = call(
        &tools,
        "edit_file",
        json!({"path": "twice.txt", "edits": [{"old": "x"}]}),
    )
    .await;
    assert!(failed(&shape).contains("`oldText`"));
}

#[tokio::test]
async fn create_directory_and_list_directory() {
    let f = Fixture::new();
    let tools = tools(&f);
    ok(&call(&tools, "create_directory", json!({"path": "made/inner"})).await);
    assert!(f.ws.join("made/inner").is_dir());
    let on_file = call(&tools, "create_directory", json!({"path": "mine.txt"})).await;
    assert!(failed(&on_file).contains("is a file"));
    let listing = call(&tools, "list_directory", json!({"path": "."})).await;
    let text = ok(&listing);
    assert!(text.contains("[DIR] sub"));
    assert!(text.contains("[FILE] mine.txt"));
    assert!(text.contains("[LINK] link_file"));
    let empty = call(&tools, "list_directory", json!({"path": "made/inner"})).await;
    assert!(ok(&empty).contains("is empty"));
}

#[tokio::test]
async fn move_file_renames_and_carries_what_was_read() {
    let f = Fixture::new();
    let tools = tools(&f);
    ok(&call(&tools, "read_text_file", json!({"path": "mine.txt"})).await);
    ok(&call(
        &tools,
        "move_file",
        json!({"source": "mine.txt", "destination": "moved/yours.txt"}),
    )
    .await);
    assert!(!f.ws.join("mine.txt").exists());
    assert_eq!(
        fs::read_to_string(f.ws.join("moved/yours.txt")).unwrap(),
        "mine\n"
    );
    ok(&call(&tools, "delete_file", json!({"path": "moved/yours.txt"})).await);
    let exists = call(
        &tools,
        "move_file",
        json!({"source": "notread.txt", "destination": "sub/a.txt"}),
    )
    .await;
    assert!(failed(&exists).contains("already exists"));
    let missing = call(
        &tools,
        "move_file",
        json!({"source_path": "nope", "destination_path": "x"}),
    )
    .await;
    assert!(failed(&missing).contains("does not exist"));
    let root = call(
        &tools,
        "move_file",
        json!({"source": ".", "destination": "sub/ws"}),
    )
    .await;
    assert!(refused(&root).contains("cannot be moved"));
    let into_itself = call(
        &tools,
        "move_file",
        json!({"source": "sub", "destination": "sub/inner"}),
    )
    .await;
    assert!(failed(&into_itself).contains("into itself"));
}
