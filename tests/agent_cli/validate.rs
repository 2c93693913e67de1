//! `massgen --validate` checks each agent CLI a config names: missing from PATH it is
//! refused with the command that installs it; installed, it passes, with a note when it
//! cannot sign in yet.

use std::path::Path;

use crate::harness;
use crate::support::sandbox::Sandbox;

const CLIS: [(&str, &str, &str); 3] = [
    (
        "claude_code",
        "claude",
        "npm install -g @anthropic-ai/claude-code",
    ),
    ("codex", "codex", "npm install -g @openai/codex"),
    ("gemini_cli", "gemini", "npm install -g @google/gemini-cli"),
];

fn config(backend_type: &str) -> String {
    format!("agents:\n  - id: coder\n    backend:\n      type: {backend_type}\n      cwd: work\n")
}

fn path_with(dir: Option<&Path>) -> String {
    let system = "/usr/local/bin:/usr/bin:/bin";
    match dir {
        Some(dir) => format!("{}:{system}", dir.display()),
        None => system.to_string(),
    }
}

#[test]
fn a_cli_missing_from_path_is_refused_with_its_install_command() {
    for (backend_type, program, install) in CLIS {
        let sandbox = Sandbox::new();
        let file = sandbox.write("config.yaml", &config(backend_type));
        let output = sandbox
            .massgen()
            .env("PATH", path_with(None))
            .arg("--validate")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{backend_type}: {stderr}");
        assert!(
            stderr.contains(&format!("`{program}` is not installed or not on PATH"))
                && stderr.contains(install)
                && stderr.contains("agent `coder`"),
            "{backend_type}: {stderr}"
        );
    }
}

#[test]
fn an_installed_cli_validates_and_a_missing_login_is_a_note() {
    let Some(bin) = harness::peer("node_modules/.bin/claude") else {
        return;
    };
    let clis = bin.parent().unwrap();
    for (backend_type, program, _) in CLIS {
        let sandbox = Sandbox::new();
        let file = sandbox.write("config.yaml", &config(backend_type));
        let output = sandbox
            .massgen()
            .env("PATH", path_with(Some(clis)))
            .env_remove("CODEX_API_KEY")
            .env_remove("ANTHROPIC_AUTH_TOKEN")
            .env_remove("CLAUDE_CODE_OAUTH_TOKEN")
            .arg("--validate")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{backend_type}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "note: agent `coder`: `{program}` is not logged in"
            )),
            "{backend_type}: {stderr}"
        );
    }
}
