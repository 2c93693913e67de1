//! MassGen-style configs through the `massgen` binary: repeated keys, unsupported and unknown keys load with `warning: FILE:LINE:COL: …` lines, and a real provider without its API key fails with exit 1 and never panics.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::sandbox::{Sandbox, text};

use crate::common::{ConfigRuns, assert_no_panic, describe};

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
fn web_display_type_loads_with_a_warning() {
    assert_loads_with_warning(
        "web.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted, tokens_per_second: 0}\nui:\n  display_type: web\n",
        "5:17: ignored: ui.display_type: web — the browser UI is not supported yet",
    );
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
/// (`enable_web_search`, `max_orchestration_restarts` and the round timeouts are acted on.)
const UNSUPPORTED: [(usize, usize, &str); 2] = [
    (37, 5, "orchestrator.coordination.use_two_tier_workspace"),
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
    // Each says what MassGen would have done with the key.
    for (line, column, key) in UNSUPPORTED {
        let expected = format!(
            "warning: {}:{line}:{column}: ignored: {key} — MassGen would",
            path.display()
        );
        let count = warnings.iter().filter(|w| w.starts_with(&expected)).count();
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
    // Gemini takes no built-in tool beside the file and MCP tools: said once, for agent_a.
    let dropped = format!(
        "warning: {}:6:7: agent `agent_a`: Gemini's Google Search (`enable_web_search`) will not \
         be sent on any call: every call also offers its file tools (`cwd`) and its MCP tools \
         (`mcp_servers`).",
        path.display()
    );
    assert!(
        warnings.iter().any(|w| w.starts_with(&dropped)),
        "expected {dropped:?}\n{info}"
    );
    assert_eq!(
        warnings.len(),
        UNSUPPORTED.len() + 2,
        "one warning per ignored key and the dropped Gemini tool, nothing else\n{info}"
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
        "max_orchestration_restarts",
        "initial_round_timeout_seconds",
        "round_timeout_grace_seconds",
        "enable_web_search",
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
    assert!(stdout.contains("(4 warnings)"), "{info}");
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
        UNSUPPORTED.len() + 2,
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
