//! The `massgen` command line: shipped examples, quick setup with `--model`/`--backend`, API keys, `--validate` and config discovery.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use crate::common::{
    RunArgs, SOLO, assert_code, assert_stderr_contains, assert_stdout_contains, describe,
};
use crate::support::sandbox::{Sandbox, text};

#[test]
fn list_examples_names_shipped_configs() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--list-examples"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "  demo/three_agents ");
    assert_stdout_contains(&output, "  basic/multi/three_agents_default ");
    assert_stdout_contains(&output, "  scripted/single_agent ");
}

#[test]
fn every_listed_example_validates() {
    let sandbox = Sandbox::new();
    let listing = text(&sandbox.run(&["--list-examples"]).stdout);
    let names: Vec<&str> = listing
        .lines()
        .filter(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(names.len() >= 8, "{listing}");
    for name in names {
        let output = sandbox.run(&["--validate", &format!("@examples/{name}")]);
        assert_code(&output, 0);
        assert_stdout_contains(&output, &format!("✓ @examples/{name} is valid: "));
    }
}

#[test]
fn example_prints_the_shipped_yaml() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--example", "demo/three_agents"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "type: scripted");
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/demo/three_agents.yaml"),
    )
    .unwrap();
    assert_eq!(text(&output.stdout), shipped);
}

#[test]
fn example_with_an_unknown_name_fails() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--example", "nope_nothing"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(&output, "error: no shipped config matches `nope_nothing`");
    assert_stderr_contains(&output, "--list-examples");
}

#[test]
fn quick_setup_with_the_scripted_model() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "scripted", "--no-logs", "hello"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "━━ Turn 1 ━━ hello");
    assert_stdout_contains(&output, "This is a scripted answer to: hello");
    assert!(output.stderr.is_empty(), "{}", describe(&output));
}

#[test]
fn quick_setup_with_a_real_model_needs_its_key_before_anything_starts() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "gpt-5", "q"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(
        &output,
        "error: agent `agent`: backend `openai` needs an API key: set OPENAI_API_KEY",
    );
    let output = sandbox.run(&["--backend", "claude", "--model", "claude-sonnet-4-5", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "set ANTHROPIC_API_KEY");
    assert!(!sandbox.massgen_dir().exists(), "{}", describe(&output));
}

#[test]
fn a_key_from_a_dotenv_file_is_enough_to_start() {
    let sandbox = Sandbox::new();
    sandbox.write(".env", "GROQ_API_KEY=gsk-from-dotenv\n");
    // Nothing listens on this port: the run starts, then the agent fails to connect.
    let output = sandbox
        .massgen()
        .args([
            "--backend",
            "groq",
            "--model",
            "llama-3.3-70b-versatile",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--display",
            "plain",
            "q",
        ])
        .output()
        .unwrap();
    let all = describe(&output);
    assert!(!all.contains("needs an API key"), "{all}");
    assert!(all.contains("cannot reach Groq"), "{all}");
    assert!(!all.contains("gsk-from-dotenv"), "{all}");
}

#[test]
fn validate_notes_missing_keys_but_fails_on_config_mistakes() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--validate", "@examples/providers/claude/claude_sonnet_4_5"]);
    assert_code(&output, 0);
    assert_stderr_contains(
        &output,
        "note: agent `claude_agent`: backend `claude` needs an API key: set ANTHROPIC_API_KEY",
    );
    sandbox.write(
        "custom.yaml",
        "agent:\n  id: a\n  backend:\n    type: chatcompletion\n    model: m\n    base_url: https://llm.example.com/v1\n",
    );
    let output = sandbox.run(&["--validate", "custom.yaml"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "needs an API key: set `api_key` in the config");
}

#[test]
fn validate_leaves_a_base_url_from_an_unset_variable_to_the_run() {
    // As in MassGen's providers/azure/azure_openai_multi.yaml: the endpoint comes from the
    // environment; --validate warns that the variable is unset instead of calling the
    // unexpanded text a bad URL, and a run stops at the variable.
    let sandbox = Sandbox::new();
    sandbox.write(
        "azure.yaml",
        "agent:\n  id: a\n  backend:\n    type: azure_openai\n    model: gpt-4o\n    \
         base_url: ${MASSGEN_TEST_UNSET_BASE_URL}\n    api_key: k\n",
    );
    let output = sandbox.run(&["--validate", "azure.yaml"]);
    assert_code(&output, 0);
    assert_stderr_contains(
        &output,
        "environment variable `MASSGEN_TEST_UNSET_BASE_URL` is not set (needed to run)",
    );
    let output = sandbox.run(&["--config", "azure.yaml", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(
        &output,
        "environment variable `MASSGEN_TEST_UNSET_BASE_URL` is not set",
    );
}

#[test]
fn quick_setup_with_an_unknown_model_asks_for_backend() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--model", "llama-unknown", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(
        &output,
        "error: --model: cannot tell which backend serves model `llama-unknown`",
    );
    assert_stderr_contains(&output, "--backend");
}

#[test]
fn quick_setup_with_a_misspelled_backend_suggests_one() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--backend", "opnai", "--model", "x", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "error: --backend: unknown backend type `opnai`");
    assert_stderr_contains(&output, "did you mean `openai`?");
}

#[test]
fn missing_config_file_fails() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "does_not_exist.yaml", "q"]);
    assert_code(&output, 1);
    assert!(output.stdout.is_empty(), "{}", describe(&output));
    assert_stderr_contains(&output, "config file `does_not_exist.yaml` not found");
}

#[test]
fn unknown_example_config_fails_and_points_at_the_list() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--config", "@examples/zzz_nothing", "q"]);
    assert_code(&output, 1);
    assert_stderr_contains(&output, "no shipped config matches `@examples/zzz_nothing`");
    assert_stderr_contains(&output, "--list-examples");
}

#[test]
fn project_config_is_used_without_config_flag() {
    let sandbox = Sandbox::new();
    sandbox.write(".massgen/config.yaml", SOLO);
    let output = sandbox.run(&["--display", "plain", "where"]);
    assert_code(&output, 0);
    assert!(
        output.stderr.is_empty(),
        "no demo notice\n{}",
        describe(&output)
    );
    assert_stdout_contains(&output, "agents: solo (scripted)");
    assert_stdout_contains(&output, "Solo answer to: where");
}

#[test]
fn user_config_is_used_and_the_project_config_wins_over_it() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "home/.config/massgen/config.yaml",
        &SOLO.replace("id: solo", "id: from_user"),
    );
    let output = sandbox.run(&["--no-logs", "q"]);
    assert_code(&output, 0);
    assert!(output.stderr.is_empty(), "{}", describe(&output));
    assert_stdout_contains(&output, "agents: from_user (scripted)");

    sandbox.write(".massgen/config.yaml", SOLO);
    let output = sandbox.run(&["--no-logs", "q"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "agents: solo (scripted)");
}

/// The agent programs massgen does not run are refused by `--validate` exactly as a run
/// refuses them, with their reason and never as typos; the agent CLIs massgen runs validate.
#[test]
fn refused_agent_programs_are_refused_by_validate_and_run_alike() {
    let sandbox = Sandbox::new();
    for (kind, reason) in [
        ("copilot", "GitHub's own Copilot service"),
        ("antigravity_cli", "Google's own Antigravity service"),
        ("ag2", "Python objects of the autogen framework"),
    ] {
        sandbox.write(
            "cc.yaml",
            &format!("agents:\n  - id: coder\n    backend: {{type: {kind}, cwd: workspace}}\n"),
        );
        for args in [
            vec!["--validate", "cc.yaml"],
            vec!["--config", "cc.yaml", "q"],
        ] {
            let output = sandbox.run(&args);
            assert_code(&output, 1);
            assert_stderr_contains(
                &output,
                &format!("backend type `{kind}` is not supported by massgen ("),
            );
            assert_stderr_contains(&output, reason);
            assert_stderr_contains(
                &output,
                "supported types: scripted, openai, claude, claude_code, codex, gemini_cli, gemini",
            );
            assert!(!text(&output.stderr).contains("did you mean"), "{args:?}");
        }
    }
    // The three agent CLIs validate when installed (the pinned ones, put on PATH); a
    // missing one is refused (tests/agent_cli/validate.rs).
    let clis =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/node_modules/.bin");
    if !clis.join("claude").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} is missing",
            clis.display()
        );
        return;
    }
    let path = format!(
        "{}:{}",
        clis.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for kind in ["claude_code", "codex", "gemini_cli"] {
        sandbox.write(
            "cc.yaml",
            &format!(
                "agents:\n  - id: coder\n    backend: {{type: {kind}, cwd: workspace, \
                 system_prompt: be brief}}\n"
            ),
        );
        let output = sandbox
            .massgen()
            .env("PATH", &path)
            .args(["--validate", "cc.yaml"])
            .output()
            .unwrap();
        assert_code(&output, 0);
        assert_stdout_contains(&output, &format!("coder ({kind}/default)"));
        assert!(!text(&output.stderr).contains("ignored"), "{kind}");
    }
}
