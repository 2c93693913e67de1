//! Malformed and MassGen-style configs through the `massgen` binary: `--validate` and a real run both report `error: FILE:LINE:COL: …` with a help line, exit 1, and never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;

use support::sandbox::{Sandbox, text};

/// `--validate` and a real run of a config file in the sandbox.
trait ConfigRuns {
    fn validate(&self, name: &str) -> Output;
    fn run(&self, name: &str) -> Output;
}

impl ConfigRuns for Sandbox {
    /// `massgen --validate NAME`.
    fn validate(&self, name: &str) -> Output {
        self.massgen()
            .env_remove("FOO")
            .env_remove("SOME_UNSET_VAR_XYZ")
            .args(["--validate", name])
            .output()
            .unwrap()
    }

    /// `massgen --config NAME --display plain "q"`.
    fn run(&self, name: &str) -> Output {
        self.massgen()
            .env_remove("FOO")
            .env_remove("SOME_UNSET_VAR_XYZ")
            .args(["--config", name, "--display", "plain", "q"])
            .output()
            .unwrap()
    }
}

fn describe(what: &str, output: &Output) -> String {
    format!(
        "{what}\n--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

fn assert_no_panic(what: &str, output: &Output) {
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(
        !stdout.to_lowercase().contains("panic"),
        "{}",
        describe(what, output)
    );
    assert!(!stderr.contains("panicked"), "{}", describe(what, output));
    assert!(
        !stderr.contains("RUST_BACKTRACE"),
        "{}",
        describe(what, output)
    );
}

/// What a config error must look like.
struct Expected<'a> {
    /// 1-based line and column the error points at; `None` for errors about the whole file.
    loc: Option<(usize, usize)>,
    /// A phrase of the message (on the `error:` line).
    message: &'a str,
    /// A phrase of the `  help:` line; `None` when the code gives no help line.
    help: Option<&'a str>,
}

/// Checks one config error report: exit 1, nothing on stdout, `error: FILE:LINE:COL: …`
/// as the first line of stderr, then a help line.
fn assert_error_report(what: &str, output: &Output, path: &Path, expected: &Expected<'_>) {
    assert_no_panic(what, output);
    let info = describe(what, output);
    assert_eq!(output.status.code(), Some(1), "{info}");
    assert!(output.stdout.is_empty(), "stdout should be empty\n{info}");
    let stderr = text(&output.stderr);
    assert!(stderr.starts_with("error: "), "{info}");
    let first = stderr.lines().next().unwrap_or_default();
    let prefix = match expected.loc {
        Some((line, column)) => format!("error: {}:{line}:{column}: ", path.display()),
        None => format!("error: {}: ", path.display()),
    };
    assert!(
        first.starts_with(&prefix),
        "first stderr line should start with {prefix:?}\n{info}"
    );
    assert!(
        first.contains(expected.message),
        "error line should contain {:?}\n{info}",
        expected.message
    );
    let help = stderr.lines().find(|line| line.starts_with("  help: "));
    match (expected.help, help) {
        (Some(phrase), Some(help)) => assert!(
            help.contains(phrase),
            "help line should contain {phrase:?}\n{info}"
        ),
        (Some(_), None) => panic!("no `  help:` line\n{info}"),
        (None, Some(_)) => panic!("unexpected `  help:` line\n{info}"),
        (None, None) => {}
    }
}

/// Writes `yaml` as `name` and checks the same error from `--validate` and from a run.
fn assert_config_error(name: &str, yaml: &str, expected: &Expected<'_>) {
    let sandbox = Sandbox::new();
    let path = sandbox.write(name, yaml);
    let validate = sandbox.validate(name);
    assert_error_report(
        &format!("massgen --validate {name}"),
        &validate,
        &path,
        expected,
    );
    let run = sandbox.run(name);
    assert_error_report(
        &format!("massgen --config {name} --display plain q"),
        &run,
        &path,
        expected,
    );
    assert_eq!(
        text(&validate.stderr),
        text(&run.stderr),
        "--validate and a run should report the same error"
    );
    assert!(
        !sandbox.root.join(".massgen").exists(),
        "a config error must not create a log directory"
    );
}

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

/// Runs `--validate` and a real run of a config that must load, and returns stderr of the
/// validation after checking both exit 0.
fn assert_loads_with_warning(name: &str, yaml: &str, warning: &str) {
    let sandbox = Sandbox::new();
    let path = sandbox.write(name, yaml);
    for output in [sandbox.validate(name), sandbox.run(name)] {
        assert_no_panic(name, &output);
        let info = describe(name, &output);
        assert_eq!(output.status.code(), Some(0), "{info}");
        let expected = format!("warning: {}:{warning}", path.display());
        assert!(
            text(&output.stderr).contains(&expected),
            "expected {expected:?}\n{info}"
        );
    }
}

#[test]
fn a_repeated_key_keeps_the_last_value_like_massgen() {
    // PyYAML keeps the last value of a repeated key, so real MassGen configs may rely on it.
    assert_loads_with_warning(
        "dupkey.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted, tokens_per_second: 0}\nagents:\n  - id: b\n    backend: {type: scripted, tokens_per_second: 0}\n",
        "4:1: this key repeats an earlier one in the same mapping; the last value is used",
    );
}

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
fn bad_environment_reference() {
    assert_config_error(
        "badref.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      api_key: ${1BAD}\n",
        &Expected {
            loc: Some((6, 16)),
            message: "`${1BAD}` is not a valid environment variable reference",
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
            message: "unterminated `${` in \"${FOO\"",
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
fn scripted_vote_for_a_missing_agent() {
    assert_config_error(
        "votefor.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      vote_for: b\n  - id: c\n    backend:\n      type: scripted\n      vote_for: a\n",
        &Expected {
            loc: Some((5, 17)),
            message: "`vote_for: b` names no agent of this config",
            help: Some("agent ids here: a, c"),
        },
    );
}

#[test]
fn unknown_scripted_option_suggests_the_close_one() {
    assert_config_error(
        "typo.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      tokens_per_secnd: 0\n",
        &Expected {
            loc: Some((5, 7)),
            message: "`agents[0].backend.tokens_per_secnd` is not an option of the scripted backend",
            help: Some("did you mean `tokens_per_second`?"),
        },
    );
}

#[test]
fn negative_scripted_speed() {
    assert_config_error(
        "negspeed.yaml",
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: -1\n",
        &Expected {
            loc: Some((5, 24)),
            message: "`agent.backend.tokens_per_second` must be 0, or between 0.1 and 1000000",
            help: Some("0 streams as fast as possible"),
        },
    );
}

#[test]
fn unknown_scripted_failure_mode() {
    assert_config_error(
        "failbogus.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted, fail: {mode: bogus}}\n",
        &Expected {
            loc: Some((3, 44)),
            message: "`agents[0].backend.fail.mode` cannot be \"bogus\"",
            help: Some("valid values: error, no_workflow, hang, invalid_vote, truncate"),
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

#[test]
fn web_display_type_loads_with_a_warning() {
    assert_loads_with_warning(
        "web.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted, tokens_per_second: 0}\nui:\n  display_type: web\n",
        "5:17: ignored: ui.display_type: web — the browser UI is not supported yet",
    );
}

#[test]
fn a_tiny_scripted_speed_is_rejected_rather_than_overflowing() {
    assert_config_error(
        "tinyspeed.yaml",
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: 1.0e-30\n",
        &Expected {
            loc: Some((5, 24)),
            message: "must be 0, or between 0.1 and 1000000",
            help: Some("0 streams as fast as possible"),
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

/// The structure of configs/basic/multi/three_agents_default.yaml plus top-level `memory:`,
/// backend `mcp_servers:` and a misspelled top-level key.
const MASSGEN_STYLE: &str = "\
agents:
  - id: agent_a
    backend:
      type: gemini
      model: gemini-3-flash-preview
      enable_web_search: true
      cwd: workspace
      mcp_servers:
        - name: weather
          type: stdio
          command: npx
  - id: agent_b
    backend:
      type: openai
      model: gpt-5
      text:
        verbosity: low
      reasoning:
        effort: low
        summary: auto
      enable_web_search: true
      cwd: workspace
  - id: agent_c
    backend:
      type: grok
      model: grok-4-1-fast-reasoning
      enable_web_search: true
      cwd: workspace
ui:
  display_type: textual_terminal
  logging_enabled: true
orchestrator:
  snapshot_storage: snapshots
  agent_temporary_workspace: temp_workspaces
  max_new_answers_per_agent: 5
  coordination:
    use_two_tier_workspace: true
    max_orchestration_restarts: 2
timeout_settings:
  orchestrator_timeout_seconds: 1800
  initial_round_timeout_seconds: 600
  subsequent_round_timeout_seconds: 300
  round_timeout_grace_seconds: 120
memory:
  enabled: true
agnets_extra: 1
";

/// `(line, column, dotted path)` of every key in [`MASSGEN_STYLE`] that is known but not
/// supported yet.
const UNSUPPORTED: [(usize, usize, &str); 9] = [
    (6, 7, "agents[0].backend.enable_web_search"),
    (21, 7, "agents[1].backend.enable_web_search"),
    (27, 7, "agents[2].backend.enable_web_search"),
    (37, 5, "orchestrator.coordination.use_two_tier_workspace"),
    (
        38,
        5,
        "orchestrator.coordination.max_orchestration_restarts",
    ),
    (41, 3, "timeout_settings.initial_round_timeout_seconds"),
    (42, 3, "timeout_settings.subsequent_round_timeout_seconds"),
    (43, 3, "timeout_settings.round_timeout_grace_seconds"),
    (44, 1, "memory"),
];

#[test]
fn massgen_style_config_validates_with_one_warning_per_unsupported_key() {
    let sandbox = Sandbox::new();
    let name = "massgen_style.yaml";
    let path = sandbox.write(name, MASSGEN_STYLE);
    let output = sandbox.validate(name);
    assert_no_panic("validate massgen-style", &output);
    let info = describe("massgen --validate massgen_style.yaml", &output);
    assert_eq!(output.status.code(), Some(0), "{info}");

    let stderr = text(&output.stderr);
    let (notes, warnings): (Vec<&str>, Vec<&str>) =
        stderr.lines().partition(|line| line.starts_with("note: "));
    assert!(
        warnings.iter().all(|line| line.starts_with("warning: ")),
        "every stderr line should be a warning or a note\n{info}"
    );
    // Keys live in the environment, not the config: validation only notes them.
    assert_eq!(notes.len(), 3, "one note per agent without a key\n{info}");
    for (line, column, key) in UNSUPPORTED {
        let expected = format!(
            "warning: {}:{line}:{column}: ignored: {key} — not supported yet",
            path.display()
        );
        let count = warnings.iter().filter(|w| **w == expected).count();
        assert_eq!(count, 1, "expected exactly one {expected:?}\n{info}");
    }
    let unknown = format!(
        "warning: {}:46:1: ignored: unknown key `agnets_extra`",
        path.display()
    );
    assert!(
        warnings.iter().any(|w| w.starts_with(&unknown)),
        "expected {unknown:?}\n{info}"
    );
    assert_eq!(
        warnings.len(),
        UNSUPPORTED.len() + 1,
        "one warning per ignored key, nothing else\n{info}"
    );
    // Keys that massgen does act on or passes through to the provider are not reported.
    for quiet in [
        "display_type",
        "max_new_answers_per_agent",
        "cwd",
        "mcp_servers",
        "snapshot_storage",
        "reasoning",
        "text",
    ] {
        assert!(
            !stderr.contains(&format!(".{quiet} ")),
            "{quiet} should not warn\n{info}"
        );
    }

    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with(&format!(
            "✓ {} is valid: 3 agents: agent_a (gemini/gemini-3-flash-preview), agent_b (openai/gpt-5), agent_c (grok/grok-4-1-fast-reasoning)",
            path.display()
        )),
        "{info}"
    );
    assert!(stdout.contains("(10 warnings)"), "{info}");
}

#[test]
fn massgen_style_config_cannot_run_a_real_provider_yet() {
    let sandbox = Sandbox::new();
    let name = "massgen_style.yaml";
    sandbox.write(name, MASSGEN_STYLE);
    let output = sandbox
        .massgen()
        .args(["--config", name, "q"])
        .output()
        .unwrap();
    assert_no_panic("run massgen-style", &output);
    let info = describe("massgen --config massgen_style.yaml q", &output);
    assert_eq!(output.status.code(), Some(1), "{info}");
    assert!(output.stdout.is_empty(), "{info}");
    let stderr = text(&output.stderr);
    // The same warnings as --validate come first, then the error.
    assert_eq!(
        stderr
            .lines()
            .filter(|line| line.starts_with("warning: "))
            .count(),
        UNSUPPORTED.len() + 1,
        "{info}"
    );
    let error = stderr
        .lines()
        .find(|line| line.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line\n{info}"));
    // Every agent's missing key is reported at once, each naming its variable.
    assert!(
        error.contains("agent `agent_a`: backend `gemini` needs an API key: set GOOGLE_API_KEY or GEMINI_API_KEY"),
        "{info}"
    );
    assert!(
        stderr.contains("agent `agent_b`: backend `openai` needs an API key: set OPENAI_API_KEY"),
        "{info}"
    );
    assert!(
        stderr.contains("agent `agent_c`: backend `grok` needs an API key: set XAI_API_KEY"),
        "{info}"
    );
    assert!(
        stderr.contains("  help: or run offline with a scripted config"),
        "{info}"
    );
    assert!(!sandbox.root.join(".massgen").exists(), "{info}");
}
