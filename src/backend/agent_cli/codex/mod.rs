//! The OpenAI Codex CLI as an agent CLI: `codex exec --json` (or `codex exec resume <id>`)
//! with the prompt on stdin, its state in the agent's own `CODEX_HOME`, configured by the
//! `config.toml` massgen writes there.

mod config;
mod parser;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use self::config::{Access, BRIDGE_TOKEN_VARIABLE, config_toml};
use self::parser::{CodexParser, SessionTotals};
use crate::backend::agent_cli::dialect::{CommandPlan, Dialect, Launch, LineParser};
use crate::sandbox;

/// The Codex CLI's login file, in its home (`~/.codex`, or `CODEX_HOME`). massgen runs
/// Codex with a home of the agent's own, so a user's login is copied there.
pub const LOGIN_FILE: &str = "auth.json";

#[derive(Default)]
pub struct Codex {
    totals: SessionTotals,
}

impl Codex {
    pub fn new() -> Self {
        Self::default()
    }

    /// Where the user's own Codex login lives, under their home directory.
    pub fn user_login(user_home: &Path) -> PathBuf {
        user_home.join(".codex").join(LOGIN_FILE)
    }
}

impl Dialect for Codex {
    fn backend_type(&self) -> &'static str {
        "codex"
    }

    fn program(&self) -> &'static str {
        "codex"
    }

    fn install_command(&self) -> &'static str {
        "npm install -g @openai/codex"
    }

    fn supported_versions(&self) -> (&'static str, Option<&'static str>) {
        ("0.171.0", None)
    }

    /// `codex-cli 0.171.0`.
    fn parse_version(&self, output: &str) -> Option<String> {
        output
            .split_whitespace()
            .find(|word| {
                word.starts_with(|first: char| first.is_ascii_digit()) && word.contains('.')
            })
            .map(str::to_string)
    }

    /// `codex exec` reads `CODEX_API_KEY`; `OPENAI_API_KEY` works once handed to it under
    /// that name.
    /// `codex exec resume` keeps the session's first `developer_instructions`.
    fn takes_system_prompt_on_resume(&self) -> bool {
        false
    }

    fn key_variables(&self) -> &'static [&'static str] {
        &["CODEX_API_KEY", "OPENAI_API_KEY"]
    }

    fn logged_in(&self, user_home: &Path) -> bool {
        std::fs::metadata(Self::user_login(user_home)).is_ok_and(|meta| meta.len() > 0)
    }

    fn command(&self, launch: &Launch<'_>) -> CommandPlan {
        command(launch, sandbox::Mode::from_env() == sandbox::Mode::Off)
    }

    fn parser(&self) -> Box<dyn LineParser> {
        Box::new(CodexParser::new(Arc::clone(&self.totals)))
    }
}

/// The command for one start; `own_sandbox` when massgen's sandbox is off and Codex's own
/// confines the commands it runs.
fn command(launch: &Launch<'_>, own_sandbox: bool) -> CommandPlan {
    let mut args = vec!["exec".to_string()];
    if launch.resume.is_some() {
        args.push("resume".into());
    }
    args.extend(["--json", "--skip-git-repo-check"].map(String::from));
    if Access::from_mode(launch.options.permission_mode.as_deref()) == Access::Bypass {
        args.push("--dangerously-bypass-approvals-and-sandbox".into());
    }
    match launch.resume {
        Some(session) => args.push(session.to_string()),
        None => args.extend(["--cd".to_string(), launch.cwd.display().to_string()]),
    }
    args.push("-".into());
    CommandPlan {
        args,
        env: vec![
            ("CODEX_HOME".into(), launch.home.display().to_string()),
            (BRIDGE_TOKEN_VARIABLE.into(), launch.bridge.token.clone()),
            ("NO_COLOR".into(), "1".into()),
        ],
        files: vec![(
            launch.home.join("config.toml"),
            config_toml(launch, own_sandbox),
        )],
        stdin: Some(launch.prompt.to_string()),
    }
}

#[cfg(test)]
mod tests;
