//! Orchestrator and timeout settings out of range, and bad or unset `${VAR}` environment references, through the `massgen` binary: errors are reported as `error: FILE:LINE:COL: …` with a help line, exit 1, and never panic; an unset variable only warns under `--validate`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::sandbox::{Sandbox, text};

use crate::common::{
    ConfigRuns, Expected, assert_config_error, assert_error_report, assert_no_panic, describe,
};

#[test]
fn max_new_answers_of_the_wrong_type() {
    assert_config_error(
        "five.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\norchestrator:\n  max_new_answers_per_agent: \"five\"\n",
        &Expected {
            loc: Some((5, 30)),
            message: "`orchestrator.max_new_answers_per_agent` must be a whole number ≥ 0, found the text \"five\"",
            help: Some("write it like `max_new_answers_per_agent: 3`"),
        },
    );
}

#[test]
fn max_new_answers_of_zero() {
    assert_config_error(
        "zero.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\norchestrator:\n  max_new_answers_per_agent: 0\n",
        &Expected {
            loc: Some((5, 30)),
            message: "`orchestrator.max_new_answers_per_agent` is 0, so no agent could ever answer",
            help: Some("use 1 or more"),
        },
    );
}

#[test]
fn orchestrator_timeout_of_zero() {
    assert_config_error(
        "tzero.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\ntimeout_settings:\n  orchestrator_timeout_seconds: 0\n",
        &Expected {
            loc: Some((5, 33)),
            message: "`timeout_settings.orchestrator_timeout_seconds` must be more than 0",
            help: Some("the default is 1800"),
        },
    );
}

#[test]
fn bad_environment_reference() {
    assert_config_error(
        "badref.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      api_key: ${1BAD}\n",
        &Expected {
            loc: Some((6, 16)),
            message: "has a `${…}` that is not a valid environment variable reference",
            help: Some("do not start with a digit"),
        },
    );
}

#[test]
fn unterminated_environment_reference() {
    assert_config_error(
        "unterminated.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      api_key: \"${FOO\"\n",
        &Expected {
            loc: Some((6, 16)),
            message: "`agents[0].backend.api_key` has a `${` with no closing `}` (character 1",
            help: Some("write environment references as ${NAME}"),
        },
    );
}

#[test]
fn invalid_voting_sensitivity() {
    assert_config_error(
        "sens.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\norchestrator:\n  voting_sensitivity: extreme\n",
        &Expected {
            loc: Some((5, 23)),
            message: "`orchestrator.voting_sensitivity` cannot be \"extreme\"",
            help: Some("valid values: lenient, balanced, strict"),
        },
    );
}

#[test]
fn unset_variable_is_a_warning_for_validate_and_an_error_for_a_run() {
    let sandbox = Sandbox::new();
    let name = "unset.yaml";
    let path = sandbox.write(
        name,
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      answer: \"key is ${SOME_UNSET_VAR_XYZ}\"\n",
    );

    let validate = sandbox.validate(name);
    assert_no_panic("validate", &validate);
    let info = describe("massgen --validate unset.yaml", &validate);
    assert_eq!(validate.status.code(), Some(0), "{info}");
    let stderr = text(&validate.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "warning: {}:6:15: environment variable `SOME_UNSET_VAR_XYZ` is not set (needed to run)",
            path.display()
        ),
        "{info}"
    );
    let stdout = text(&validate.stdout);
    assert!(
        stdout.starts_with(&format!(
            "✓ {} is valid: 1 agent: a (scripted/scripted)",
            path.display()
        )),
        "{info}"
    );
    assert!(stdout.contains("(1 warning)"), "{info}");

    let run = sandbox.run(name);
    assert_error_report(
        "massgen --config unset.yaml",
        &run,
        &path,
        &Expected {
            loc: Some((6, 15)),
            message: "environment variable `SOME_UNSET_VAR_XYZ` is not set",
            help: Some("add `SOME_UNSET_VAR_XYZ=…` to ./.env"),
        },
    );

    // Following the help fixes it: a `.env` in the working directory sets the variable.
    std::fs::write(
        sandbox.root.join(".env"),
        "SOME_UNSET_VAR_XYZ=from-dotenv\n",
    )
    .unwrap();
    let fixed = sandbox
        .massgen()
        .args(["--config", name, "--display", "quiet", "--no-logs", "q"])
        .output()
        .unwrap();
    let info = describe("run with ./.env", &fixed);
    assert_eq!(fixed.status.code(), Some(0), "{info}");
    assert_eq!(text(&fixed.stdout), "key is from-dotenv\n", "{info}");
    assert!(fixed.stderr.is_empty(), "{info}");
}

#[test]
fn validate_counts_the_keys_it_honours_and_ignores() {
    let sandbox = Sandbox::new();
    let ignoring = sandbox.write(
        "ignoring.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-4o\n      \
         websocket_mode: true\n    memory: {enabled: true}\nui:\n  display_type: simple\n",
    );
    let validate = sandbox.validate("ignoring.yaml");
    let info = describe("massgen --validate ignoring.yaml", &validate);
    assert_eq!(validate.status.code(), Some(0), "{info}");
    // agents, ui; id, backend, memory; type, model, websocket_mode; display_type
    // — memory's own keys are inside an ignored block and not counted.
    assert!(
        text(&validate.stdout).contains(&format!(
            "✓ {} is valid: 1 agent: a (openai/gpt-4o); 7 keys honoured, 2 ignored (2 warnings)",
            ignoring.display()
        )),
        "{info}"
    );

    sandbox.write(
        "clean.yaml",
        "agent:\n  id: a\n  backend: {type: scripted}\n",
    );
    let validate = sandbox.validate("clean.yaml");
    let info = describe("massgen --validate clean.yaml", &validate);
    assert!(
        text(&validate.stdout).ends_with("(scripted/scripted); all 4 keys honoured\n"),
        "{info}"
    );
}

#[test]
fn presenter_agent_that_names_no_agent() {
    assert_config_error(
        "presenter.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\n  - id: b\n    backend: {type: scripted}\norchestrator:\n  coordination_mode: decomposition\n  presenter_agent: zed\n",
        &Expected {
            loc: Some((8, 20)),
            message: "orchestrator.presenter_agent `zed` names no agent; the agents are: a, b",
            help: Some(
                "name the agent that integrates every answer by its `id`, or leave it out (the last agent presents)",
            ),
        },
    );
}

#[test]
fn coordination_mode_that_massgen_does_not_know() {
    assert_config_error(
        "mode.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted}\norchestrator:\n  coordination_mode: teams\n",
        &Expected {
            loc: Some((5, 22)),
            message: "`orchestrator.coordination_mode` cannot be \"teams\"",
            help: Some("valid values: voting, decomposition"),
        },
    );
}
