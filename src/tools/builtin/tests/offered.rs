//! The tools offered for the settings, their schemas, and errors in a call's arguments.

use serde_json::json;

use super::{call, failed, settings, tools};
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
