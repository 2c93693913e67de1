//! Tests for mapping tool calls to facets.

use super::*;
use serde_json::json;

fn boundary() -> Boundary {
    Boundary {
        workspace: Some(PathBuf::from("/ws")),
        writable: vec![PathBuf::from("/ws")],
    }
}

fn summary(tool: &str, arguments: Value) -> Vec<(Action, String)> {
    facets(tool, &arguments, &boundary())
        .into_iter()
        .map(|facet| (facet.action, facet.target))
        .collect()
}

#[test]
fn file_tools_give_one_facet_per_path() {
    assert_eq!(
        summary(
            "mcp__filesystem__read_multiple_files",
            json!({"paths": ["a", "b"]})
        ),
        vec![
            (Action::ReadFile, "a".into()),
            (Action::ReadFile, "b".into())
        ]
    );
    assert_eq!(
        summary(
            "mcp__workspace_tools__copy_file",
            json!({"source_path": "a", "destination_path": "b"})
        ),
        vec![
            (Action::ReadFile, "a".into()),
            (Action::WriteFile, "b".into())
        ]
    );
    assert_eq!(
        summary(
            "mcp__filesystem__move_file",
            json!({"source": "a", "destination": "b"})
        ),
        vec![
            (Action::WriteFile, "a".into()),
            (Action::WriteFile, "b".into())
        ]
    );
    assert_eq!(
        summary(
            "mcp__filesystem__edit_file",
            json!({"path": "x.rs", "edits": []})
        ),
        vec![(Action::WriteFile, "x.rs".into())]
    );
    assert_eq!(
        summary(
            "read_media",
            json!({"inputs": [{"files": {"a": "a.png"}, "prompt": "p"}]})
        ),
        vec![(Action::ReadFile, "a.png".into())]
    );
}

#[test]
fn paths_are_matched_relative_and_absolute() {
    let found = facets(
        "mcp__filesystem__write_file",
        &json!({"path": "/ws/src/../a.txt"}),
        &boundary(),
    );
    assert_eq!(found[0].forms, vec!["/ws/a.txt", "./a.txt", "a.txt"]);
    let outside = facets(
        "mcp__filesystem__write_file",
        &json!({"path": "../../etc/passwd"}),
        &boundary(),
    );
    assert_eq!(outside[0].forms, vec!["/etc/passwd"]);
    assert_eq!(resolve("/../x", None), PathBuf::from("/x"));
}

#[test]
fn commands_network_and_other_tools() {
    assert_eq!(
        summary(
            "mcp__command_line__execute_command",
            json!({"command": "ls && curl https://x.test"})
        ),
        vec![
            (Action::Command, "ls".into()),
            (Action::Command, "curl https://x.test".into()),
            (Action::ReadUrl, "https://x.test".into())
        ]
    );
    assert_eq!(
        summary("bash", json!({"cmd": "wget y"})),
        vec![
            (Action::Command, "wget y".into()),
            (Action::ReadUrl, "*".into())
        ]
    );
    assert_eq!(
        summary("mcp__fetch__fetch", json!({"url": "https://a.test"})),
        vec![(Action::ReadUrl, "https://a.test".into())]
    );
    let linear = facets("mcp__linear__create_issue", &json!({}), &boundary());
    assert_eq!(linear[0].target, "linear/create_issue");
    assert!(
        linear[0]
            .forms
            .contains(&"mcp__linear__create_issue".to_string())
    );
    assert_eq!(
        summary("custom_tool__add", json!({"a": 1})),
        vec![(Action::Mcp, "custom_tool/add".into())]
    );
    assert_eq!(
        summary("new_answer", json!({"content": "x"})),
        vec![(Action::Mcp, "new_answer".into())]
    );
}
