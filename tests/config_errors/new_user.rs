//! Config mistakes through the `massgen` binary as a new user makes them (issue 28, item 5):
//! every typo of a key gets a "did you mean" from the same key tables, a missing `agents:`
//! or `model:` is named at the key that was meant to be it, the list of valid keys is the
//! whole list, and independent mistakes all arrive in one run: `--validate` and a real run
//! print the same full report and exit 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{ConfigRuns, assert_no_panic, describe};
use crate::support::sandbox::{Sandbox, text};

/// Writes `yaml` as `name`; `--validate` and a run must both print exactly `expected`
/// (with `{path}` standing for the file) on stderr, nothing on stdout, and exit 1.
fn assert_full_report(name: &str, yaml: &str, expected: &str) {
    let sandbox = Sandbox::new();
    let path = sandbox.write(name, yaml);
    let expected = expected.replace("{path}", &path.display().to_string());
    for (what, output) in [
        (format!("massgen --validate {name}"), sandbox.validate(name)),
        (format!("massgen --config {name} q"), sandbox.run(name)),
    ] {
        assert_no_panic(&what, &output);
        let info = describe(&what, &output);
        assert_eq!(output.status.code(), Some(1), "{info}");
        assert!(output.stdout.is_empty(), "{info}");
        assert_eq!(text(&output.stderr), expected, "{info}");
    }
}

#[test]
fn three_independent_mistakes_are_reported_in_one_run() {
    assert_full_report(
        "three.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      temperature: warm\n  \
         - id: b\n    backend:\n      type: openai\n      modle: gpt-5\n\
         orchestrator:\n  voting_sensitivity: sometimes\n",
        "error: {path}:5:20: `agents[0].backend.temperature` must be a number, found the text \
         \"warm\"\n  help: write it like `temperature: 0.7`\n\
         error: {path}:9:7: `agents[1].backend.model` is missing; `agents[1].backend.modle` \
         looks like a misspelling of it\n  help: rename `modle:` to `model:`\n\
         error: {path}:11:23: `orchestrator.voting_sensitivity` cannot be \"sometimes\"\n  \
         help: valid values: lenient, balanced, strict, roi, roi_balanced, roi_conservative, \
         roi_aggressive, sequential, adversarial, consistency, diversity, reflective, checklist, \
         checklist_scored, checklist_gated\n\
         3 problems in {path}, each shown above: fix them all before the next run\n",
    );
}

#[test]
fn a_misspelt_agents_key_is_named_not_just_missing() {
    assert_full_report(
        "agnets.yaml",
        "agnets:\n  - id: a\n    backend: {type: scripted}\n",
        "error: {path}:1:1: unknown key `agnets` — did you mean `agents`? The config defines no \
         agents\n  help: rename `agnets:` to `agents:`\n",
    );
}

#[test]
fn a_misspelt_model_gets_a_did_you_mean_on_every_backend() {
    assert_full_report(
        "modle.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      modle: gpt-5\n",
        "error: {path}:5:7: `agents[0].backend.modle` is not an option of the scripted backend\n  \
         help: did you mean `model`? Rename `modle:` to `model:`\n",
    );
    assert_full_report(
        "modle_openai.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      modle: gpt-5\n",
        "error: {path}:5:7: `agents[0].backend.model` is missing; `agents[0].backend.modle` looks \
         like a misspelling of it\n  help: rename `modle:` to `model:`\n",
    );
}

#[test]
fn the_list_of_valid_keys_is_complete() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "zzz.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      zzz: 1\n",
    );
    let output = sandbox.validate("zzz.yaml");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let listed: Vec<&str> = stderr
        .split("help: keys here: ")
        .nth(1)
        .unwrap_or_default()
        .trim_end()
        .split(", ")
        .collect();
    for key in [
        "type",
        "model",
        "api_key",
        "base_url",
        "temperature",
        "max_tokens",
        "timeout",
        "mcp_servers",
        "tokens_per_second",
        "answer",
        "vote_for",
    ] {
        assert!(listed.contains(&key), "`{key}` not listed: {stderr}");
    }
}

#[test]
fn a_typo_that_only_warns_still_suggests_and_the_run_goes_on() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "warn.yaml",
        "agents:\n  - id: a\n    sytem-message: hi\n    backend: {type: scripted}\n\
         orchestrater: {}\niu: {display_type: simple}\n",
    );
    let output = sandbox.validate("warn.yaml");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "ignored: unknown key `agents[0].sytem-message`; did you mean `system_message`?"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("ignored: unknown key `orchestrater`; did you mean `orchestrator`?"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ignored: unknown key `iu`; did you mean `ui`?"),
        "{stderr}"
    );
}
