//! Claude Code (`claude`, backend type `claude_code`) as an agent CLI: `claude -p` with a
//! stream-json output, its state in the agent's own `CLAUDE_CONFIG_DIR`, massgen's tools
//! through an HTTP MCP server entry, and every call home switched off.

mod parser;

use std::path::Path;

use serde_json::json;

use crate::backend::agent_cli::dialect::{CommandPlan, Dialect, Launch, LineParser};
use crate::backend::agent_cli::event::BRIDGE_SERVER;

pub use parser::StreamJsonParser;

/// The file in `Launch::home` that names the bridge to the CLI (`--mcp-config`).
pub const MCP_CONFIG_FILE: &str = "massgen-mcp.json";
/// The file in `Launch::home` the system prompt is read from (`--system-prompt-file`): a
/// prompt with the peers' answers in it can outgrow one command-line argument.
pub const SYSTEM_PROMPT_FILE: &str = "massgen-system-prompt.md";

/// The built-in tools an agent gets: the coding ones. Claude Code's default set adds
/// subagents, cron, worktrees, workflows and skills, which MassGen switches off.
const CODING_TOOLS: [&str; 7] = [
    "Bash",
    "Edit",
    "Read",
    "Write",
    "Glob",
    "Grep",
    "NotebookEdit",
];
const WEB_TOOLS: [&str; 2] = ["WebSearch", "WebFetch"];

/// MassGen's default: file edits in the workspace go through; the allow list covers the rest.
const DEFAULT_PERMISSION_MODE: &str = "acceptEdits";

/// The environment every start gets: no telemetry, error reports, update checks, IDE
/// installs or feedback traffic; the MCP tools offered directly rather than behind a tool
/// search; no auto-memory carried between starts; and no "nested session" refusal when
/// massgen itself runs inside Claude Code.
const QUIET_ENV: [(&str, &str); 8] = [
    ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
    ("DISABLE_TELEMETRY", "1"),
    ("DISABLE_ERROR_REPORTING", "1"),
    ("DISABLE_AUTOUPDATER", "1"),
    ("CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL", "1"),
    ("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1"),
    ("ENABLE_TOOL_SEARCH", "false"),
    ("CLAUDECODE", ""),
];

/// Claude Code.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClaudeCode;

impl Dialect for ClaudeCode {
    fn backend_type(&self) -> &'static str {
        "claude_code"
    }

    fn program(&self) -> &'static str {
        "claude"
    }

    fn install_command(&self) -> &'static str {
        "npm install -g @anthropic-ai/claude-code"
    }

    fn supported_versions(&self) -> (&'static str, Option<&'static str>) {
        ("2.1.332", None)
    }

    /// `2.1.332 (Claude Code)`.
    fn parse_version(&self, output: &str) -> Option<String> {
        output
            .split_whitespace()
            .find(|word| {
                word.split('.').count() >= 2
                    && word
                        .split('.')
                        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
            })
            .map(str::to_owned)
    }

    fn key_variables(&self) -> &'static [&'static str] {
        &[
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_AUTH_TOKEN",
            "CLAUDE_CODE_OAUTH_TOKEN",
        ]
    }

    /// `~/.claude/.credentials.json` on Linux and Windows; on macOS the token sits in the
    /// keychain and `~/.claude.json` names the account.
    fn logged_in(&self, user_home: &Path) -> bool {
        if user_home.join(".claude/.credentials.json").is_file() {
            return true;
        }
        std::fs::read_to_string(user_home.join(".claude.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .is_some_and(|state| state["oauthAccount"].is_object())
    }

    fn command(&self, launch: &Launch<'_>) -> CommandPlan {
        let mcp_config = launch.home.join(MCP_CONFIG_FILE);
        let system_prompt = launch.home.join(SYSTEM_PROMPT_FILE);
        let options = launch.options;
        let tools = built_in_tools(options.web_search);

        let mut args = strings(&[
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages",
            "--system-prompt-snapshot",
            "off",
            "--setting-sources",
            "",
            "--strict-mcp-config",
        ]);
        args.push("--system-prompt-file".into());
        args.push(path_text(&system_prompt));
        args.push("--mcp-config".into());
        args.push(path_text(&mcp_config));
        args.push("--tools".into());
        args.push(tools.join(","));
        args.push("--permission-mode".into());
        args.push(
            options
                .permission_mode
                .clone()
                .unwrap_or_else(|| DEFAULT_PERMISSION_MODE.into()),
        );
        // One argument per rule: a rule like `Bash(git *)` has a space in it.
        args.push("--allowedTools".into());
        args.extend(allowed_tools(&options.allowed_tools, &tools));
        if !options.disallowed_tools.is_empty() {
            args.push("--disallowedTools".into());
            args.extend(options.disallowed_tools.iter().cloned());
        }
        if let Some(effort) = options.reasoning_effort.as_deref().and_then(effort) {
            args.extend(strings(&["--effort", effort]));
        }
        if let Some(model) = launch.model {
            args.extend(strings(&["--model", model]));
        }
        if let Some(session) = launch.resume {
            args.extend(strings(&["--resume", session]));
        }

        let mut env: Vec<(String, String)> = QUIET_ENV
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        env.push(("CLAUDE_CONFIG_DIR".into(), path_text(launch.home)));
        if let Some(base_url) = launch.base_url {
            env.push(("ANTHROPIC_BASE_URL".into(), base_url.to_owned()));
        }
        if let Some(tokens) = options.max_thinking_tokens {
            env.push(("MAX_THINKING_TOKENS".into(), tokens.to_string()));
        }

        CommandPlan {
            args,
            env,
            files: vec![
                (mcp_config, bridge_config(launch)),
                (system_prompt, launch.system_prompt.to_owned()),
            ],
            stdin: Some(launch.prompt.to_owned()),
        }
    }

    fn parser(&self) -> Box<dyn LineParser> {
        Box::new(StreamJsonParser::default())
    }
}

/// `--mcp-config`'s JSON: the bridge as an HTTP server with its bearer token; no server
/// for a start without a bridge (a side question with no tools).
fn bridge_config(launch: &Launch<'_>) -> String {
    if launch.bridge.url.is_empty() {
        return json!({ "mcpServers": {} }).to_string();
    }
    json!({
        "mcpServers": {
            BRIDGE_SERVER: {
                "type": "http",
                "url": launch.bridge.url,
                "headers": { "Authorization": format!("Bearer {}", launch.bridge.token) },
            }
        }
    })
    .to_string()
}

fn built_in_tools(web_search: bool) -> Vec<&'static str> {
    let mut tools = CODING_TOOLS.to_vec();
    if web_search {
        tools.extend(WEB_TOOLS);
    }
    tools
}

/// The tools that run without asking (nobody answers a prompt under `-p`, so anything
/// else is refused): the config's `allowed_tools`, or every built-in tool offered; always
/// the bridge's tools.
fn allowed_tools(configured: &[String], offered: &[&str]) -> Vec<String> {
    let mut allowed: Vec<String> = if configured.is_empty() {
        offered.iter().map(|tool| (*tool).to_owned()).collect()
    } else {
        configured.to_vec()
    };
    allowed.push(format!("mcp__{BRIDGE_SERVER}"));
    allowed
}

/// `--effort` takes low, medium, high, xhigh and max; Codex's `minimal` is the lowest.
fn effort(reasoning_effort: &str) -> Option<&'static str> {
    match reasoning_effort {
        "minimal" | "low" => Some("low"),
        "medium" => Some("medium"),
        "high" => Some("high"),
        "xhigh" => Some("xhigh"),
        "max" => Some("max"),
        _ => None,
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod command_tests;
#[cfg(test)]
mod tests;
