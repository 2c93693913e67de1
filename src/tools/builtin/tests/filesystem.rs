//! The filesystem server's tools, the offered set, and argument errors.

use std::fs;

use serde_json::{Value, json};

use super::{call, failed, ok, refused, settings, tools};
use crate::tools::builtin::BuiltinTools;
use crate::tools::permissions::fixture::Fixture;

#[test]
fn specs_use_massgen_names_and_valid_object_schemas() {
    let f = Fixture::new();
    let specs = tools(&f).specs();
    assert_eq!(specs.len(), 16);
    for spec in &specs {
        assert!(spec.name.starts_with("mcp__"), "{}", spec.name);
        assert!(!spec.description.is_empty());
        assert_eq!(spec.parameters["type"], "object");
        let properties = spec.parameters["properties"].as_object().unwrap();
        for required in spec.parameters["required"].as_array().unwrap() {
            assert!(
                properties.contains_key(required.as_str().unwrap()),
                "{}",
                spec.name
            );
        }
    }
    let names: Vec<&str> = specs.iter().map(|spec| spec.name.as_str()).collect();
    for name in [
        "mcp__filesystem__read_text_file",
        "mcp__filesystem__list_allowed_directories",
        "mcp__workspace_tools__copy_file",
        "mcp__workspace_tools__compare_directories",
        "mcp__command_line__execute_command",
    ] {
        assert!(names.contains(&name), "{name}");
    }
}

#[test]
fn settings_choose_the_servers_and_tools_offered() {
    let f = Fixture::new();
    let mut plain = settings(&f);
    plain.command_line = None;
    plain.exclude_file_operations = true;
    plain.exclude_tools = vec!["mcp__filesystem__move_file".into()];
    let tools = BuiltinTools::new(f.policy.clone(), &plain);
    assert_eq!(tools.specs().len(), 10);
    assert!(!tools.handles("mcp__filesystem__move_file"));
    assert!(!tools.handles("mcp__workspace_tools__copy_file"));
    assert!(!tools.handles("mcp__command_line__execute_command"));
    assert!(tools.handles("mcp__filesystem__read_file"));

    let mut only = settings(&f);
    only.allowed_tools = Some(vec!["mcp__filesystem__read_text_file".into()]);
    let tools = BuiltinTools::new(f.policy.clone(), &only);
    assert_eq!(tools.specs().len(), 1);
    assert!(!tools.handles("mcp__filesystem__read_file"));
}

#[tokio::test]
async fn unknown_tools_bad_json_and_missing_fields_are_explained() {
    let f = Fixture::new();
    let tools = tools(&f);
    let unknown = tools.call("mcp__filesystem__format_disk", "{}").await;
    assert!(failed(&unknown).contains("not one of your tools"));
    let bad = tools
        .call("mcp__filesystem__read_text_file", "{path:")
        .await;
    assert!(failed(&bad).contains("not valid JSON"));
    let list = tools.call("mcp__filesystem__read_text_file", "[1]").await;
    assert!(failed(&list).contains("must be a JSON object"));
    let missing = call(&tools, "write_file", json!({"path": "a.txt"})).await;
    assert!(failed(&missing).contains("missing the required `content`"));
    let wrong = call(&tools, "read_text_file", json!({"path": 7})).await;
    assert!(failed(&wrong).contains("`path`") && failed(&wrong).contains("a number"));
}

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
