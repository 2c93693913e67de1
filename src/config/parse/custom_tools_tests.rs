//! `custom_tools` entries as MassGen's configs write them, and their errors.

use crate::config::{Env, from_text};

const HEAD: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n    custom_tools:\n";

fn load(entries: &str) -> Vec<crate::config::CustomToolConfig> {
    let loaded = from_text(&format!("{HEAD}{entries}"), "t.yaml", &Env::default()).unwrap();
    loaded.config.agents[0].backend.tools.custom_tools.clone()
}

fn error(entries: &str) -> String {
    from_text(&format!("{HEAD}{entries}"), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn one_function_and_lists_with_renames_read_as_one_tool_per_function() {
    let tools = load(
        "      - name: two_num_tool\n        category: math\n        path: massgen/tool/_basic/_two_num_tool.py\n        function: two_num_tool\n      \
         - path: t.py\n        func: [add, sub]\n        name: [plus, minus]\n        description: shared\n        \
         preset_args: [{unit: m}, {}]\n",
    );
    assert_eq!(tools.len(), 3);
    assert_eq!(tools[0].offered_name(), "custom_tool__two_num_tool");
    assert_eq!(tools[0].category, "math");
    assert_eq!(
        tools[0].written_path.as_deref(),
        Some("massgen/tool/_basic/_two_num_tool.py")
    );
    assert_eq!(tools[1].function, "add");
    assert_eq!(tools[1].offered_name(), "custom_tool__plus");
    assert_eq!(tools[2].offered_name(), "custom_tool__minus");
    assert_eq!(tools[2].description.as_deref(), Some("shared"));
    assert_eq!(tools[1].preset_args["unit"], "m");
    assert!(tools[2].preset_args.is_empty());
    assert_eq!(tools[1].category, "default");
    assert_eq!(tools[1].entry, "agent.backend.custom_tools[1]");
}

#[test]
fn an_entry_without_a_function_is_an_error_at_the_entry() {
    let message = error("      - path: t.py\n        name: x\n");
    assert!(message.contains("t.yaml:6"), "{message}");
    assert!(
        message.contains("custom_tools[0]` names no `function`"),
        "{message}"
    );
    assert!(
        message.contains("help: name the Python function"),
        "{message}"
    );
}

#[test]
fn a_list_of_the_wrong_length_is_an_error_naming_both_counts() {
    let message =
        error("      - path: t.py\n        function: [a, b, c]\n        description: [one, two]\n");
    assert!(message.contains("t.yaml:8"), "{message}");
    assert!(
        message.contains("`agent.backend.custom_tools[0].description` is a list of 2 but `function` names 3 functions"),
        "{message}"
    );
    assert!(message.contains("a list of exactly 3"), "{message}");
}

#[test]
fn preset_args_must_be_a_mapping() {
    let message = error("      - {path: t.py, function: f, preset_args: [1, 2]}\n");
    assert!(
        message.contains("is a list of 2 but `function` names 1"),
        "{message}"
    );
    let message = error("      - {path: t.py, function: f, preset_args: fast}\n");
    assert!(
        message.contains("`agent.backend.custom_tools[0].preset_args` must be a mapping"),
        "{message}"
    );
    assert!(
        message.contains("preset_args: {unit: celsius}"),
        "{message}"
    );
}

#[test]
fn bad_shapes_and_repeated_names_are_errors() {
    let message = error("      - {path: t.py, function: \"not a name\"}\n");
    assert!(message.contains("must name Python functions"), "{message}");
    let message = error("      - {path: t.py, function: []}\n");
    assert!(message.contains("an empty list"), "{message}");
    let message =
        error("      - {path: a.py, function: f}\n      - {path: b.py, function: g, name: f}\n");
    assert!(
        message.contains("offers `custom_tool__f` again"),
        "{message}"
    );
    let message = from_text(
        &format!(
            "{}    custom_tools: tools.py\n",
            &HEAD[..HEAD.len() - "    custom_tools:\n".len()]
        ),
        "t.yaml",
        &Env::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(message.contains("must be a list of tools"), "{message}");
}

#[test]
fn custom_tools_is_acted_on_not_ignored() {
    let loaded = from_text(
        &format!("{HEAD}      - {{path: t.py, function: f, colour: red}}\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    let warnings: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    assert!(
        !warnings
            .iter()
            .any(|warning| warning.contains("ignored: agent.backend.custom_tools ")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|warning| warning.contains("ignored: agent.backend.custom_tools[0].colour")),
        "{warnings:?}"
    );
}
