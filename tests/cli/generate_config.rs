//! `massgen --generate-config PATH` without a terminal: a config from the providers whose
//! keys are set (or the offline scripted agents), that `--validate` accepts and a run can
//! use; an existing file is kept unless `--force`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{RunArgs, assert_code, assert_stderr_contains, assert_stdout_contains};
use crate::support::sandbox::{Sandbox, text};

#[test]
fn with_no_key_it_writes_offline_agents_that_validate_and_run() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&["--generate-config", "conf/agents.yaml"]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "wrote conf/agents.yaml: 3 agents");
    assert_stdout_contains(&output, "no provider API key is set");
    let yaml = std::fs::read_to_string(sandbox.root.join("conf/agents.yaml")).unwrap();
    assert!(yaml.contains("type: scripted"), "{yaml}");
    let validated = sandbox.run(&["--validate", "conf/agents.yaml"]);
    assert_code(&validated, 0);
    let ran = sandbox.run(&[
        "--config",
        "conf/agents.yaml",
        "--display",
        "quiet",
        "--no-logs",
        "what is 2+2?",
    ]);
    assert_code(&ran, 0);
}

#[test]
fn keys_in_the_environment_give_one_agent_per_provider_and_no_key_is_written() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .massgen()
        .args(["--generate-config", "mine.yaml"])
        .env("OPENAI_API_KEY", "sk-secret-openai")
        .env("GEMINI_API_KEY", "secret-gemini")
        .write_stdin("")
        .output()
        .unwrap();
    assert_code(&output, 0);
    assert_stdout_contains(&output, "wrote mine.yaml: 2 agents");
    let yaml = std::fs::read_to_string(sandbox.root.join("mine.yaml")).unwrap();
    assert!(
        yaml.contains("type: openai") && yaml.contains("type: gemini"),
        "{yaml}"
    );
    assert!(!yaml.contains("secret"), "a key was written: {yaml}");
    let validated = sandbox
        .massgen()
        .args(["--validate", "mine.yaml"])
        .env("OPENAI_API_KEY", "sk-secret-openai")
        .env("GEMINI_API_KEY", "secret-gemini")
        .output()
        .unwrap();
    assert_code(&validated, 0);
    assert!(
        !text(&validated.stderr).contains("note:"),
        "{}",
        text(&validated.stderr)
    );
}

#[test]
fn backend_model_and_count_narrow_it() {
    let sandbox = Sandbox::new();
    let output = sandbox.run(&[
        "--generate-config",
        "two.yaml",
        "--config-backend",
        "claude",
        "--config-model",
        "claude-opus-4-1",
        "--config-agents",
        "2",
    ]);
    assert_code(&output, 0);
    assert_stdout_contains(&output, "set ANTHROPIC_API_KEY");
    let yaml = std::fs::read_to_string(sandbox.root.join("two.yaml")).unwrap();
    assert_eq!(
        yaml.matches("model: claude-opus-4-1\n").count(),
        2,
        "{yaml}"
    );
    assert_code(&sandbox.run(&["--validate", "two.yaml"]), 0);
    let bad = sandbox.run(&["--generate-config", "bad.yaml", "--config-backend", "opnai"]);
    assert_code(&bad, 1);
    assert_stderr_contains(&bad, "unknown backend type `opnai`");
    assert!(!sandbox.root.join("bad.yaml").exists());
}

#[test]
fn an_existing_file_is_kept_unless_forced() {
    let sandbox = Sandbox::new();
    sandbox.write("taken.yaml", "# mine\n");
    let refused = sandbox.run(&["--generate-config", "taken.yaml"]);
    assert_code(&refused, 2);
    assert_stderr_contains(&refused, "taken.yaml already exists");
    assert_stderr_contains(&refused, "--force");
    let kept = std::fs::read_to_string(sandbox.root.join("taken.yaml")).unwrap();
    assert_eq!(kept, "# mine\n");
    let forced = sandbox.run(&["--generate-config", "taken.yaml", "--force"]);
    assert_code(&forced, 0);
    assert_code(&sandbox.run(&["--validate", "taken.yaml"]), 0);
}
