//! What differs between agent CLIs: how one is started (arguments, environment, config
//! files it reads), how its stream reads, and how it is installed.

use std::path::{Path, PathBuf};

use super::event::CliEvent;

/// The address of the agent's tool bridge: a loopback MCP server (streamable HTTP) that
/// accepts `Authorization: Bearer <token>` only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeAddress {
    pub url: String,
    pub token: String,
}

/// The agent's config keys a CLI reads (MassGen's names in the comments).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CliOptions {
    /// `permission_mode` (Claude Code: default, acceptEdits, bypassPermissions, plan).
    pub permission_mode: Option<String>,
    /// `allowed_tools`: the CLI's own tools it may use without asking.
    pub allowed_tools: Vec<String>,
    /// `disallowed_tools` / `exclude_tools`.
    pub disallowed_tools: Vec<String>,
    /// `max_thinking_tokens` (Claude Code).
    pub max_thinking_tokens: Option<u64>,
    /// `reasoning.effort` / `model_reasoning_effort` (Codex): minimal, low, medium, high.
    pub reasoning_effort: Option<String>,
    /// `enable_web_search`.
    pub web_search: bool,
}

/// Everything one start of the CLI needs.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// `model`, unless it is MassGen's `default` (then the CLI picks).
    pub model: Option<&'a str>,
    /// The agent's workspace: the CLI's working directory.
    pub cwd: &'a Path,
    /// A directory of this agent's own for the CLI's config and state (CODEX_HOME, the
    /// Gemini CLI's settings); it persists for the run so sessions can be resumed.
    pub home: &'a Path,
    /// The system prompt: massgen's coordination instructions and the config's own text.
    pub system_prompt: &'a str,
    /// The user prompt of this start.
    pub prompt: &'a str,
    /// The CLI session to continue, if any.
    pub resume: Option<&'a str>,
    pub bridge: &'a BridgeAddress,
    pub options: &'a CliOptions,
    /// The provider base URL to use instead of the vendor's (`base_url` in the config, or
    /// the tests' model server), if any.
    pub base_url: Option<&'a str>,
}

/// How to start the CLI: arguments after the program, environment to set, files to write
/// first (paths are absolute, inside `Launch::home` or `Launch::cwd`), and what to write to
/// its stdin (closed after).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandPlan {
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub files: Vec<(PathBuf, String)>,
    pub stdin: Option<String>,
}

/// Reads a CLI's stdout, one line at a time.
pub trait LineParser: Send {
    /// The events one line of stdout reports (none for lines of no interest).
    fn line(&mut self, line: &str) -> Vec<CliEvent>;
}

/// One agent CLI.
pub trait Dialect: Send + Sync {
    /// The backend `type` in MassGen configs (`claude_code`).
    fn backend_type(&self) -> &'static str;
    /// The program to find on PATH (`claude`).
    fn program(&self) -> &'static str;
    /// How a user installs it (`npm install -g @anthropic-ai/claude-code`).
    fn install_command(&self) -> &'static str;
    /// The oldest version massgen is tested with, and the first it is known not to work
    /// with (exclusive), as dotted numbers.
    fn supported_versions(&self) -> (&'static str, Option<&'static str>);
    /// Pulls the version out of `<program> --version`'s output.
    fn parse_version(&self, output: &str) -> Option<String>;
    /// Environment variables that carry an API key the CLI reads; one being set, or the
    /// CLI's own login (`logged_in`), is enough.
    fn key_variables(&self) -> &'static [&'static str];
    /// Whether the CLI's own login is present under the user's home directory.
    fn logged_in(&self, user_home: &Path) -> bool;
    /// The command for one start.
    fn command(&self, launch: &Launch<'_>) -> CommandPlan;
    /// Whether a resumed session takes the system prompt of the new start; a CLI that keeps
    /// its session's first one is told a changed prompt at the top of the user prompt.
    fn takes_system_prompt_on_resume(&self) -> bool {
        true
    }
    /// A fresh reader for one start's stdout.
    fn parser(&self) -> Box<dyn LineParser>;
}
