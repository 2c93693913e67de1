//! Agent and backend errors (unknown or missing backend type, missing model, missing backend, duplicate or unusable agent ids, wrongly typed options) through the `massgen` binary: `--validate` and a real run both report `error: FILE:LINE:COL: …` with a help line, exit 1, and never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Expected, assert_config_error};

#[test]
fn unknown_backend_type_suggests_the_close_one() {
    // `type: opnai` — the value starts at column 13 of line 4.
    assert_config_error(
        "opnai.yaml",
        "agents:\n  - id: a\n    backend:\n      type: opnai\n      model: gpt-5\n",
        &Expected {
            loc: Some((4, 13)),
            message: "`agents[0].backend.type` cannot be \"opnai\"",
            help: Some("did you mean \"openai\"?"),
        },
    );
}

#[test]
fn missing_model_for_a_real_backend() {
    // Points at the `backend:` mapping, whose first key is `type` at 4:7.
    assert_config_error(
        "nomodel.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n",
        &Expected {
            loc: Some((4, 7)),
            message: "`agents[0].backend.model` is missing",
            help: Some("add `model: gpt-5` here"),
        },
    );
}

#[test]
fn missing_backend_type() {
    assert_config_error(
        "notype.yaml",
        "agents:\n  - id: a\n    backend:\n      model: gpt-5\n",
        &Expected {
            loc: Some((4, 7)),
            message: "`agents[0].backend.type` is missing",
            help: Some("add `type: openai`"),
        },
    );
}

#[test]
fn agent_without_backend() {
    assert_config_error(
        "nobackend.yaml",
        "agents:\n  - id: lonely\n    system_message: hi\n",
        &Expected {
            loc: Some((2, 5)),
            message: "agent `lonely` has no `backend`",
            help: Some("add `backend: {type: openai, model: gpt-5}`"),
        },
    );
}

#[test]
fn duplicate_agent_ids_point_at_the_second_and_name_the_first() {
    assert_config_error(
        "dup.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\n  - id: b\n    backend: {type: scripted}\n  - id: a\n    backend: {type: scripted}\n",
        &Expected {
            loc: Some((6, 9)),
            message: "agent id `a` is used twice (first at line 2)",
            help: Some("give every agent its own id"),
        },
    );
}

#[test]
fn temperature_of_the_wrong_type() {
    assert_config_error(
        "temp.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      temperature: \"hot\"\n",
        &Expected {
            loc: Some((6, 20)),
            message: "`agents[0].backend.temperature` must be a number, found the text \"hot\"",
            help: Some("write it like `temperature: 0.7`"),
        },
    );
}

#[test]
fn agent_id_with_a_slash() {
    assert_config_error(
        "slash.yaml",
        "agents:\n  - id: team/a\n    backend: {type: scripted}\n",
        &Expected {
            loc: Some((2, 9)),
            message: "agent id \"team/a\" cannot be used in file names",
            help: Some("use letters, digits, `-` and `_`"),
        },
    );
}

#[test]
fn a_provider_tool_the_backend_lacks_is_refused() {
    // `enable_code_interpreter` is OpenAI's and xAI's name; Claude's tool is code execution.
    assert_config_error(
        "interpreter.yaml",
        "agents:\n  - id: writer\n    backend:\n      type: claude\n      model: claude-sonnet-4-5\n      enable_code_interpreter: true\n",
        &Expected {
            loc: Some((6, 7)),
            message: "agent `writer`: `agents[0].backend.enable_code_interpreter: true` asks for the provider's code interpreter, which backend type `claude` does not have (it is available on openai, grok)",
            help: Some(
                "`claude` calls its tool code execution: use `enable_code_execution: true` instead",
            ),
        },
    );
}
