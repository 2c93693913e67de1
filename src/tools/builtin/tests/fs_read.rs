//! The filesystem server's reading tools.

use std::fs;

use serde_json::{Value, json};

use super::{call, failed, ok, refused, tools};
use crate::tools::permissions::fixture::Fixture;

#[tokio::test]
async fn read_text_file_reads_whole_files_heads_and_tails() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::write(f.ws.join("lines.txt"), "1\n2\n3\n4\n").unwrap();
    assert_eq!(
        ok(&call(&tools, "read_text_file", json!({"path": "lines.txt"})).await),
        "1\n2\n3\n4\n"
    );
    assert_eq!(
        ok(&call(
            &tools,
            "read_text_file",
            json!({"path": "lines.txt", "head": 2})
        )
        .await),
        "1\n2\n"
    );
    assert_eq!(
        ok(&call(
            &tools,
            "read_text_file",
            json!({"path": "lines.txt", "tail": "1"})
        )
        .await),
        "4\n"
    );
    let alias = tools
        .call("mcp__filesystem__read_file", r#"{"path": "mine.txt"}"#)
        .await;
    assert_eq!(ok(&alias), "mine\n");
    let both = call(
        &tools,
        "read_text_file",
        json!({"path": "lines.txt", "head": 1, "tail": 1}),
    )
    .await;
    assert!(failed(&both).contains("not both"));
    let missing = call(&tools, "read_text_file", json!({"path": "nope.txt"})).await;
    assert!(failed(&missing).contains("does not exist"));
    let dir = call(&tools, "read_text_file", json!({"path": "sub"})).await;
    assert!(failed(&dir).contains("is a directory"));
    let peer = call(
        &tools,
        "read_text_file",
        json!({"path": f.at("peers/agent1/ans.txt")}),
    )
    .await;
    assert_eq!(ok(&peer), "peer answer\n");
}

#[tokio::test]
async fn binary_files_are_refused_and_large_files_cut() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::write(f.ws.join("image.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let binary = call(&tools, "read_text_file", json!({"path": "image.png"})).await;
    assert!(failed(&binary).contains("binary"));
    let big = "x".repeat(1024 * 1024 + 10);
    fs::write(f.ws.join("big.txt"), &big).unwrap();
    let read = call(&tools, "read_text_file", json!({"path": "big.txt"})).await;
    let text = ok(&read);
    assert!(text.contains("Showing the first 1048576 of 1048586 bytes"));
    assert!(text.len() < big.len() + 200);
}

#[tokio::test]
async fn read_multiple_files_reports_each_file() {
    let f = Fixture::new();
    let tools = tools(&f);
    let mixed = call(
        &tools,
        "read_multiple_files",
        json!({"paths": ["mine.txt", "nope.txt", "../outside/secret.txt"]}),
    )
    .await;
    let text = ok(&mixed);
    assert!(text.contains("mine.txt:\nmine\n"));
    assert!(text.contains("nope.txt: Error - Could not read"));
    assert!(text.contains("../outside/secret.txt: Error - `../outside/secret.txt` is outside"));
    assert!(!text.contains("secret\n"));
    let all_refused = call(
        &tools,
        "read_multiple_files",
        json!({"paths": ["/etc/passwd"]}),
    )
    .await;
    refused(&all_refused);
    let empty = call(&tools, "read_multiple_files", json!({"paths": []})).await;
    assert!(failed(&empty).contains("empty"));
}

#[tokio::test]
async fn directory_tree_is_json_and_skips_git() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::create_dir_all(f.ws.join(".git/objects")).unwrap();
    let tree = call(&tools, "directory_tree", json!({"path": "."})).await;
    let nodes: Value = serde_json::from_str(ok(&tree)).unwrap();
    let nodes = nodes.as_array().unwrap();
    let named = |name: &str| {
        nodes
            .iter()
            .find(|node| node["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(named(".git")["children"], json!([]));
    assert_eq!(
        named("sub")["children"],
        json!([{"name": "a.txt", "type": "file"}])
    );
    assert_eq!(named("link_dir")["type"], "symlink");
    let file = call(&tools, "directory_tree", json!({"path": "mine.txt"})).await;
    assert!(failed(&file).contains("not a directory"));
}

#[tokio::test]
async fn search_files_matches_globs_names_and_exclusions() {
    let f = Fixture::new();
    let tools = tools(&f);
    fs::create_dir_all(f.ws.join("src/deep")).unwrap();
    fs::write(f.ws.join("src/deep/lib.rs"), "").unwrap();
    fs::write(f.ws.join("src/main.rs"), "").unwrap();
    let search = |pattern: &str, excludes: Value| {
        call(
            &tools,
            "search_files",
            json!({"path": ".", "pattern": pattern, "excludePatterns": excludes}),
        )
    };
    let all = search("**/*.rs", json!([])).await;
    assert_eq!(ok(&all).lines().count(), 2);
    let by_name = search("*.rs", json!(["deep"])).await;
    assert_eq!(ok(&by_name), f.ws.join("src/main.rs").display().to_string());
    let part = search("MAIN", json!([])).await;
    assert!(ok(&part).ends_with("src/main.rs"));
    let none = search("*.go", json!([])).await;
    assert!(ok(&none).starts_with("No matches"));
    let bad = search("[", json!([])).await;
    assert!(failed(&bad).contains("not a valid glob"));
    let through_link = search("inner.txt", json!([])).await;
    assert!(
        ok(&through_link).starts_with("No matches"),
        "symlinked dirs are not followed"
    );
}

#[tokio::test]
async fn get_file_info_and_list_allowed_directories() {
    let f = Fixture::new();
    let tools = tools(&f);
    let info = call(&tools, "get_file_info", json!({"path": "mine.txt"})).await;
    let text = ok(&info);
    assert!(
        text.contains("size: 5") && text.contains("isFile: true") && text.contains("binary: false")
    );
    assert!(text.contains("permissions: "));
    let allowed = call(&tools, "list_allowed_directories", json!({})).await;
    let text = ok(&allowed);
    assert!(text.starts_with("Allowed directories:"));
    assert!(text.contains(&format!(
        "{} (your workspace; read and write)",
        f.ws.display()
    )));
}
