//! Configs that are not valid YAML or not shaped like a config (syntax errors, a second document, an empty file, no or doubled agent lists) through the `massgen` binary: `--validate` and a real run both report `error: FILE:LINE:COL: …` with a help line, exit 1, and never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Expected, assert_config_error};

#[test]
fn invalid_yaml_unclosed_bracket() {
    // The parser notices the missing `]` at the end of the input: line 3, column 1.
    assert_config_error(
        "unclosed.yaml",
        "agents: [\n  {id: a, backend: {type: scripted}}\n",
        &Expected {
            loc: Some((3, 1)),
            message: "invalid YAML: while parsing a flow sequence, expected ',' or ']'",
            help: Some("check indentation, quotes and brackets at this spot"),
        },
    );
}

#[test]
fn invalid_yaml_tab_indentation() {
    // Line 4 is indented with a tab; the error points just after it.
    assert_config_error(
        "tab.yaml",
        "agents:\n  - id: a\n    backend:\n\ttype: scripted\n",
        &Expected {
            loc: Some((4, 2)),
            message: "invalid YAML: tabs disallowed",
            help: Some("check indentation"),
        },
    );
}

#[test]
fn empty_agents_list() {
    assert_config_error(
        "emptyagents.yaml",
        "# a comment first\nagents: []\n",
        &Expected {
            loc: Some((2, 9)),
            message: "`agents` is an empty list",
            help: Some("add at least one agent"),
        },
    );
}

#[test]
fn no_agents_at_all() {
    assert_config_error(
        "noagents.yaml",
        "orchestrator:\n  voting_sensitivity: lenient\n",
        &Expected {
            loc: Some((1, 1)),
            message: "the config defines no agents",
            help: Some("add an `agents:` list"),
        },
    );
}

#[test]
fn both_agent_and_agents() {
    // Points at the `agents:` list, whose first item starts at 5:3.
    assert_config_error(
        "both.yaml",
        "agent:\n  id: a\n  backend: {type: scripted}\nagents:\n  - id: b\n    backend: {type: scripted}\n",
        &Expected {
            loc: Some((5, 3)),
            message: "a config has `agent` or `agents`, not both",
            help: Some("put every agent in the `agents:` list and remove `agent:`"),
        },
    );
}

#[test]
fn top_level_must_be_a_mapping() {
    assert_config_error(
        "toplist.yaml",
        "- a\n- b\n",
        &Expected {
            loc: Some((1, 1)),
            message: "a config must be a mapping of `key: value` lines, found a list",
            help: Some("a config starts with `agents:`"),
        },
    );
}

#[test]
fn a_second_yaml_document() {
    // The location is where the second document's content starts (line 5), not the
    // `---` line itself (line 4).
    assert_config_error(
        "twodocs.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\n---\nagents:\n  - id: b\n    backend: {type: scripted}\n",
        &Expected {
            loc: Some((5, 1)),
            message: "a config holds one YAML document, but a second one starts here (after `---`)",
            help: Some("remove the `---` line and what follows it"),
        },
    );
}

#[test]
fn an_empty_file() {
    assert_config_error(
        "empty.yaml",
        "",
        &Expected {
            loc: None,
            message: "the config is empty",
            help: Some("massgen --example demo/three_agents"),
        },
    );
}

#[test]
fn a_file_of_only_comments() {
    assert_config_error(
        "comments.yaml",
        "# agents: will come later\n\n# nothing yet\n",
        &Expected {
            loc: None,
            message: "the config is empty",
            help: Some("massgen --example demo/three_agents"),
        },
    );
}
