//! The resolved tool settings: a backend's MCP servers, workspace and command line, and
//! the orchestrator's context paths and workspace directories.

use std::path::PathBuf;
use std::time::Duration;

use super::command_mode::ExecutionMode;
use super::custom_tools::CustomToolConfig;
use super::permissions::PermissionsConfig;
use super::secret::Secret;

/// How long to wait for an MCP server to start and list its tools.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one MCP tool call may take.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one `execute_command` may run.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// What an agent can act with besides the workflow tools.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolSettings {
    /// `cwd`: the agent's workspace (`workspace` → `.massgen/workspaces/workspace_<hex>`);
    /// `None` gives the agent no file tools.
    pub cwd: Option<String>,
    pub mcp_servers: Vec<McpServerConfig>,
    /// Full tool names (`mcp__server__tool`, or a built-in tool's name) never offered.
    pub exclude_tools: Vec<String>,
    /// When set, only these full tool names are offered.
    pub allowed_tools: Option<Vec<String>>,
    /// `enable_mcp_command_line`: offer `execute_command` in the workspace.
    pub command_line: Option<CommandLineConfig>,
    /// `exclude_file_operation_mcps: true` turns the copy/delete/compare tools off.
    pub exclude_file_operations: bool,
    /// How the tool calls of one reply run.
    pub execution: ToolExecution,
    /// `auto_discover_custom_tools: true`: MassGen's registry servers join `mcp_servers`
    /// when the config is loaded (`mcp_registry`).
    pub auto_discover: bool,
    /// `custom_tools`: Python functions offered as `custom_tool__<name>`.
    pub custom_tools: Vec<CustomToolConfig>,
    /// `enable_strict_tool_use` (Claude).
    pub strict_tools: StrictTools,
    /// `enable_code_based_tools: true`: the MCP servers' tools are also written as Python
    /// files in the workspace (or `shared_tools_directory`), and only `direct_mcp_servers`
    /// stay direct tools.
    pub code_based: Option<CodeBasedTools>,
    /// `enable_multimodal_tools: true` (or the orchestrator's, inherited): the agent gets
    /// MassGen's `read_media`, answered by its own model.
    pub multimodal_tools: bool,
    /// `permissions:` as it applies to this agent: its own block layered over the top-level
    /// one (rules of both, its own settings first); `None` when neither is given or the
    /// block says `enabled: false`.
    pub permissions: Option<PermissionsConfig>,
}

/// MassGen's code-based tools (`enable_code_based_tools`) as a backend configures them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CodeBasedTools {
    /// `direct_mcp_servers`: servers whose tools stay direct tools and get no code files.
    pub direct_servers: Vec<String>,
    /// `shared_tools_directory`: where the code files go for every agent (relative to the
    /// project directory), instead of each workspace.
    pub shared_directory: Option<String>,
}

/// `enable_strict_tool_use: true` (Claude): the agent's tools go with `strict: true`, so
/// the model's arguments always match their schemas, except the tools of a custom-tool
/// entry or an MCP server that says `strict: false`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrictTools {
    pub enabled: bool,
    /// Tools sent without `strict`: full names, or a server's `mcp__<server>__` prefix.
    pub opted_out: Vec<String>,
}

impl StrictTools {
    /// Whether the tool named `name` goes with `strict: true`.
    pub fn applies_to(&self, name: &str) -> bool {
        self.enabled
            && !self
                .opted_out
                .iter()
                .any(|out| name == out || (out.ends_with("__") && name.starts_with(out.as_str())))
    }
}

/// How the tool calls of one model reply run: one after another, or at once
/// (`concurrent_tool_execution: true`, at most `max_concurrent_tools`, default 10), and
/// MassGen's timing aid `debug_delay_seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolExecution {
    /// At most this many calls of one reply run at once; 1 runs them in order.
    pub max_at_once: usize,
    /// A pause the agent makes once, after its n-th tool call of the run.
    pub debug_delay: Option<DebugDelay>,
}

impl Default for ToolExecution {
    fn default() -> Self {
        Self {
            max_at_once: 1,
            debug_delay: None,
        }
    }
}

/// `debug_delay_seconds` after `debug_delay_after_n_tools` (default 3) tool calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugDelay {
    pub pause: Duration,
    pub after_calls: u32,
}

impl ToolSettings {
    /// Whether `name` passes this backend's allow and exclude lists.
    pub fn offers(&self, name: &str) -> bool {
        !self.exclude_tools.iter().any(|excluded| excluded == name)
            && self
                .allowed_tools
                .as_ref()
                .is_none_or(|allowed| allowed.iter().any(|allowed| allowed == name))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct McpServerConfig {
    /// Tools are exposed to models as `mcp__<name>__<tool>`.
    pub name: String,
    pub transport: McpTransport,
    pub connect_timeout: Duration,
    /// `timeout`: one call's limit.
    pub call_timeout: Duration,
    /// Full (`mcp__srv__tool`) or bare tool names; when set, only these are offered.
    pub allowed_tools: Option<Vec<String>>,
    /// Full or bare tool names never offered.
    pub exclude_tools: Vec<String>,
}

impl McpServerConfig {
    /// Whether the server's tool `tool` (bare name), exposed as `full`, passes the
    /// server's lists.
    pub fn offers(&self, tool: &str, full: &str) -> bool {
        let named = |name: &String| name == tool || name == full;
        !self.exclude_tools.iter().any(named)
            && self
                .allowed_tools
                .as_ref()
                .is_none_or(|allowed| allowed.iter().any(named))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum McpTransport {
    /// A child process speaking MCP over standard input and output.
    Stdio {
        command: String,
        args: Vec<String>,
        /// Extra environment for the child; values may hold keys, so they are secret.
        env: Vec<(String, Secret)>,
        cwd: Option<PathBuf>,
    },
    /// A server at `url` speaking streamable HTTP.
    StreamableHttp {
        url: String,
        /// Request headers (often `Authorization`), secret.
        headers: Vec<(String, Secret)>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct CommandLineConfig {
    /// Regular expressions; when non-empty, a command must match one.
    pub allowed_commands: Vec<String>,
    /// Regular expressions; a command matching one is refused.
    pub blocked_commands: Vec<String>,
    pub timeout: Duration,
    /// `command_line_network` (default true): commands may open TCP connections and
    /// listen; false denies both where the OS sandbox can (Linux Landlock ABI 4 or newer).
    pub network: bool,
    /// `command_line_execution_mode`: where commands run.
    pub mode: ExecutionMode,
}

impl Default for CommandLineConfig {
    fn default() -> Self {
        Self {
            allowed_commands: Vec::new(),
            blocked_commands: Vec::new(),
            timeout: DEFAULT_COMMAND_TIMEOUT,
            network: true,
            mode: ExecutionMode::Local,
        }
    }
}

/// Read, or read now and write during the winner's final presentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Permission {
    #[default]
    Read,
    Write,
}

impl Permission {
    pub const NAMES: [&'static str; 2] = ["read", "write"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "read" => Some(Self::Read),
            "write" => Some(Self::Write),
            _ => None,
        }
    }
}

/// A file or directory of the user's shown to every agent (`orchestrator.context_paths`).
#[derive(Clone, Debug, PartialEq)]
pub struct ContextPath {
    /// As written; relative paths are taken from the directory massgen runs in.
    pub path: PathBuf,
    pub permission: Permission,
    /// Relative to `path`: never written or deleted, even by the winner.
    pub protected_paths: Vec<PathBuf>,
}
