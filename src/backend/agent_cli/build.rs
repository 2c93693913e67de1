//! Builds an agent's CLI backend from its config: the dialect for its type, the program
//! found and checked, the config's keys as the CLI's options, and the environment it gets.

use std::ffi::OsString;
use std::sync::Arc;

use super::backend::{CliBackend, CliSetup};
use super::claude_code::ClaudeCode;
use super::codex::{Codex, LOGIN_FILE};
use super::dialect::{CliOptions, Dialect};
use super::found;
use super::gemini_cli::GeminiCli;
use crate::config::{AgentCliSettings, AgentConfig, BackendKind, Env, Thinking, providers};

/// The dialect of a CLI backend type; `None` for other types.
pub fn dialect(kind: BackendKind) -> Option<Arc<dyn Dialect>> {
    match kind {
        BackendKind::ClaudeCode => Some(Arc::new(ClaudeCode)),
        BackendKind::GeminiCli => Some(Arc::new(GeminiCli)),
        BackendKind::Codex => Some(Arc::new(Codex::new())),
        _ => None,
    }
}

/// The agent's CLI backend, or why it cannot run (not installed, unsupported version, not
/// logged in) with the fix.
pub fn build(agent: &AgentConfig, env: &Env) -> Result<CliBackend, String> {
    let backend = &agent.backend;
    let dialect = dialect(backend.kind)
        .ok_or_else(|| format!("backend type `{}` is not an agent CLI", backend.kind))?;
    let keyed = keyed_env(env, backend, dialect.as_ref());
    let found = found::find(dialect.as_ref(), &keyed)?;
    if let Some(problem) = found::login_problem(dialect.as_ref(), &keyed) {
        return Err(problem);
    }
    let settings = backend.agent_cli.clone().unwrap_or_default();
    let mut options = options(&settings);
    // MassGen leaves the Gemini CLI's own search on.
    options.web_search |= backend.kind == BackendKind::GeminiCli;
    // With `enable_mcp_command_line` commands go through massgen's `execute_command`
    // (its sandbox or Docker), and the CLI's own shell is off, as in MassGen.
    if backend.tools.command_line.is_some() {
        options
            .disallowed_tools
            .push(own_shell(backend.kind).to_string());
    }
    Ok(CliBackend::new(CliSetup {
        kind: backend.kind,
        model: backend.model.clone(),
        program: found.program,
        home: None,
        options,
        base_url: backend.base_url.clone(),
        system_extra: settings.instructions().unwrap_or_default().to_string(),
        env: child_env(env, backend, dialect.as_ref()),
        label: format!("{} {}", agent.id, dialect.program()),
        seed_files: seed_files(backend.kind, &keyed),
        dialect,
    }))
}

/// Whether `agent`'s CLI is ready to run: `Err` (not installed, unsupported version) stops
/// a run; `Ok(Some(note))` says it cannot sign in yet (a run stops there too, until it is
/// fixed); `Ok(None)` for ready CLIs and for agents of other types.
pub fn check(agent: &AgentConfig, env: &Env) -> Result<Option<String>, String> {
    let Some(dialect) = dialect(agent.backend.kind) else {
        return Ok(None);
    };
    let keyed = keyed_env(env, &agent.backend, dialect.as_ref());
    found::find(dialect.as_ref(), &keyed)?;
    Ok(found::login_problem(dialect.as_ref(), &keyed))
}

/// The CLI's own shell tool, as its `disallowed_tools` names it.
fn own_shell(kind: BackendKind) -> &'static str {
    match kind {
        BackendKind::Codex => "shell",
        BackendKind::GeminiCli => "run_shell_command",
        _ => "Bash",
    }
}

/// `env` with the config's `api_key` set as the CLI's first key variable.
fn keyed_env(env: &Env, backend: &crate::config::BackendConfig, dialect: &dyn Dialect) -> Env {
    let mut pairs: Vec<(String, String)> = env
        .variables()
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    if let (Some(key), Some(variable)) = (&backend.api_key, dialect.key_variables().first()) {
        pairs.retain(|(name, _)| name != variable);
        pairs.push(((*variable).to_string(), key.expose().to_string()));
    }
    // `codex exec` reads its key from CODEX_API_KEY only; MassGen users set OPENAI_API_KEY.
    if backend.kind == BackendKind::Codex
        && env.get("CODEX_API_KEY").is_none()
        && backend.api_key.is_none()
        && let Some(key) = env.get("OPENAI_API_KEY")
    {
        pairs.push(("CODEX_API_KEY".into(), key.to_string()));
    }
    Env::from_pairs(
        pairs
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str())),
    )
}

/// What the CLI process gets: the user's environment (and `.env` files) less the keys of
/// other providers, which it has no use for and its shell tool could print.
fn child_env(
    env: &Env,
    backend: &crate::config::BackendConfig,
    dialect: &dyn Dialect,
) -> Vec<(String, OsString)> {
    let own = dialect.key_variables();
    let foreign: Vec<&str> = BackendKind::ALL
        .into_iter()
        .filter_map(|kind| providers::row(kind).http.as_ref())
        .flat_map(|provider| provider.key_vars.iter().copied())
        .filter(|variable| !own.contains(variable))
        .collect();
    keyed_env(env, backend, dialect)
        .variables()
        .into_iter()
        .filter(|(name, _)| !foreign.contains(name))
        .map(|(name, value)| (name.to_string(), OsString::from(value)))
        .collect()
}

/// Files copied into the CLI's home before each start: Codex's own login, which it reads
/// only from its home (the agent's, not the user's), when no key is set.
fn seed_files(kind: BackendKind, env: &Env) -> Vec<(String, std::path::PathBuf)> {
    let keyed = ["CODEX_API_KEY", "OPENAI_API_KEY"]
        .iter()
        .any(|variable| env.get(variable).is_some());
    match (kind, env.get("HOME")) {
        (BackendKind::Codex, Some(home)) if !keyed => {
            let login = Codex::user_login(std::path::Path::new(home));
            if login.is_file() {
                vec![(LOGIN_FILE.to_string(), login)]
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

fn options(settings: &AgentCliSettings) -> CliOptions {
    CliOptions {
        permission_mode: settings.permission_mode.map(|mode| mode.name().to_string()),
        allowed_tools: settings.allowed_tools.clone().unwrap_or_default(),
        disallowed_tools: settings.disallowed_tools.clone(),
        max_thinking_tokens: match settings.reasoning.thinking {
            Some(Thinking::Enabled { budget_tokens }) => Some(budget_tokens),
            Some(Thinking::Disabled) => Some(0),
            Some(Thinking::Adaptive) | None => None,
        },
        reasoning_effort: settings.reasoning.effort.clone(),
        web_search: settings.web_search,
    }
}
