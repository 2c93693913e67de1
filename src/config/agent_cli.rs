//! What an agent-CLI backend (`claude_code`, `codex`, `gemini_cli`) reads from its config
//! beyond the keys every backend shares: its instructions, Claude Code's permission mode and
//! tool lists, thinking and reasoning effort, and its own web search. The shared keys keep
//! their places: `cwd` (the CLI's working directory, resolved like every agent's workspace),
//! `mcp_servers`, `exclude_tools`, `exclude_file_operation_mcps`, `enable_mcp_command_line`
//! and the command-line keys in `ToolSettings`, `api_key` in `BackendConfig`.

/// Claude Code's permission modes (`--permission-mode`); MassGen's validator knows the first
/// four, the CLI also takes `dontAsk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermissionMode {
    Default,
    AcceptEdits,
    BypassPermissions,
    Plan,
    DontAsk,
}

impl PermissionMode {
    pub const ALL: [PermissionMode; 5] = [
        Self::Default,
        Self::AcceptEdits,
        Self::BypassPermissions,
        Self::Plan,
        Self::DontAsk,
    ];

    /// The name as the CLI and the config write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::AcceptEdits => "acceptEdits",
            Self::BypassPermissions => "bypassPermissions",
            Self::Plan => "plan",
            Self::DontAsk => "dontAsk",
        }
    }

    /// Exactly as written: the CLI refuses other spellings.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.name() == name)
    }
}

/// Claude Code's extended thinking (`reasoning.type`, or the older `max_thinking_tokens`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thinking {
    /// The model decides how long to think (MassGen's default).
    Adaptive,
    /// Thinking with a token budget.
    Enabled {
        budget_tokens: u64,
    },
    Disabled,
}

/// The budget MassGen gives `reasoning: {type: enabled}` written without `budget_tokens`.
pub const DEFAULT_THINKING_BUDGET: u64 = 32_000;

/// Reasoning effort values Codex takes (`model_reasoning_effort`).
pub const CODEX_EFFORTS: [&str; 5] = ["minimal", "low", "medium", "high", "xhigh"];
/// Effort values Claude Code takes (`--effort`).
pub const CLAUDE_CODE_EFFORTS: [&str; 4] = ["low", "medium", "high", "max"];
/// Codex's reasoning summaries (`model_reasoning_summary`).
pub const CODEX_SUMMARIES: [&str; 4] = ["auto", "concise", "detailed", "none"];

/// `reasoning:` as the CLI backends read it (and Codex's `model_reasoning_effort`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CliReasoning {
    /// Claude Code: `reasoning.type` (`budget_tokens` with it), else `max_thinking_tokens`;
    /// `None` leaves MassGen's default, adaptive thinking.
    pub thinking: Option<Thinking>,
    /// `reasoning.effort` (Codex also `model_reasoning_effort`, which wins): one of
    /// [`CODEX_EFFORTS`] or [`CLAUDE_CODE_EFFORTS`], by backend.
    pub effort: Option<String>,
    /// Codex: `reasoning.summary`, one of [`CODEX_SUMMARIES`].
    pub summary: Option<String>,
}

/// The agent-CLI keys of one backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentCliSettings {
    /// `system_prompt`: MassGen uses it as the agent's own instructions in place of the
    /// agent's `system_message`.
    pub system_prompt: Option<String>,
    /// `append_system_prompt`: the same, when no `system_prompt` is given.
    pub append_system_prompt: Option<String>,
    /// Claude Code's `permission_mode`; `None` is MassGen's default, `acceptEdits`.
    pub permission_mode: Option<PermissionMode>,
    /// Claude Code's `allowed_tools`: the CLI's own tools (and `mcp__…` tools) it may use;
    /// `None` leaves MassGen's default list. (For a CLI it is not a filter of the agent's
    /// MCP tools, so `ToolSettings::allowed_tools` stays `None`.)
    pub allowed_tools: Option<Vec<String>>,
    /// Claude Code's `disallowed_tools`: tool names or patterns (`Bash(rm*)`) the CLI may
    /// not use. `exclude_tools` stays in `ToolSettings`: it hides MCP tools, as everywhere.
    pub disallowed_tools: Vec<String>,
    pub reasoning: CliReasoning,
    /// `enable_web_search`: the CLI's own web search (Claude Code's WebSearch and WebFetch,
    /// which MassGen otherwise disallows). `BackendConfig::server_tools` stays off for CLIs.
    pub web_search: bool,
}

impl AgentCliSettings {
    /// The instructions the config gives the agent in its backend, as MassGen picks them:
    /// `system_prompt` first, then `append_system_prompt`.
    pub fn instructions(&self) -> Option<&str> {
        self.system_prompt
            .as_deref()
            .or(self.append_system_prompt.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_modes_round_trip_exactly() {
        for mode in PermissionMode::ALL {
            assert_eq!(PermissionMode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(PermissionMode::from_name("acceptedits"), None);
    }

    #[test]
    fn system_prompt_wins_over_append_system_prompt() {
        let mut settings = AgentCliSettings {
            append_system_prompt: Some("after".into()),
            ..AgentCliSettings::default()
        };
        assert_eq!(settings.instructions(), Some("after"));
        settings.system_prompt = Some("own".into());
        assert_eq!(settings.instructions(), Some("own"));
    }
}
