//! The `config.toml` massgen writes into the Codex CLI's home (`CODEX_HOME`) before each
//! start: the provider, the tool bridge as an MCP server, the sandbox and approval mode,
//! the system prompt, and everything that would reach the internet or ask a human
//! switched off.

use std::fmt::Write as _;

use crate::backend::agent_cli::dialect::Launch;
use crate::backend::agent_cli::event::BRIDGE_SERVER;

/// The environment variable that carries the bridge's bearer token to the CLI (named in the
/// config, never written to it). Codex keeps variables named `*TOKEN*` and `*KEY*` out of
/// the commands it runs.
pub const BRIDGE_TOKEN_VARIABLE: &str = "MASSGEN_BRIDGE_TOKEN";

/// The model provider massgen defines when the config names a base URL.
pub const PROVIDER: &str = "massgen";

/// How the CLI's own tools may act, from the config's `permission_mode` (Claude Code's
/// words) or `approval_mode` (MassGen's Codex words). Codex's own sandbox (bubblewrap) cannot
/// start inside massgen's Landlock confinement ("setting up uid map: Permission denied"), so
/// it is used only when massgen's sandbox is off; otherwise massgen confines Codex and
/// everything it runs as one, and Codex's own sandbox stays off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Codex's own sandbox: writes to the workspace only (the default).
    Workspace,
    /// Reads only (`plan`, `read-only`, `suggest`).
    ReadOnly,
    /// No sandbox of Codex's own; massgen's confinement still applies.
    Full,
    /// `--dangerously-bypass-approvals-and-sandbox`.
    Bypass,
}

impl Access {
    pub fn from_mode(mode: Option<&str>) -> Self {
        let mode = mode.map(|mode| mode.trim().to_ascii_lowercase());
        match mode.as_deref() {
            Some("plan" | "read-only" | "readonly" | "suggest") => Self::ReadOnly,
            Some("bypasspermissions" | "full-access" | "danger-full-access") => Self::Full,
            Some("dangerous-no-sandbox" | "yolo") => Self::Bypass,
            _ => Self::Workspace,
        }
    }

    fn sandbox_mode(self, own_sandbox: bool) -> &'static str {
        match self {
            Self::Workspace if own_sandbox => "workspace-write",
            Self::ReadOnly if own_sandbox => "read-only",
            _ => "danger-full-access",
        }
    }
}

/// Codex's own tools a `disallowed_tools` entry can switch off, by the names users write.
#[derive(Default)]
struct Switched {
    shell: bool,
    web_search: bool,
    image_generation: bool,
}

fn switched_off(disallowed: &[String]) -> Switched {
    let mut off = Switched::default();
    for name in disallowed {
        match name.trim().to_ascii_lowercase().as_str() {
            "shell" | "bash" | "exec_command" | "local_shell" | "codex_shell" => off.shell = true,
            "web_search" | "websearch" | "webfetch" | "codex_web_search" => off.web_search = true,
            "image_generation" | "imagegen" => off.image_generation = true,
            _ => {}
        }
    }
    off
}

/// The whole `config.toml` for one start; `own_sandbox` when Codex confines its commands
/// itself (massgen's sandbox is off).
pub fn config_toml(launch: &Launch<'_>, own_sandbox: bool) -> String {
    let options = launch.options;
    let access = Access::from_mode(options.permission_mode.as_deref());
    let off = switched_off(&options.disallowed_tools);
    let mut text = String::from("# Written by massgen for this agent; rewritten at every start.\n");
    let mut line = |key: &str, value: &str| {
        let _ = writeln!(text, "{key} = {}", toml_string(value));
    };
    if launch.base_url.is_some() {
        line("model_provider", PROVIDER);
    }
    if let Some(model) = launch.model {
        line("model", model);
    }
    if let Some(effort) = options.reasoning_effort.as_deref() {
        line("model_reasoning_effort", effort);
    }
    line("approval_policy", "never");
    line("sandbox_mode", access.sandbox_mode(own_sandbox));
    let search = options.web_search && !off.web_search;
    line("web_search", if search { "live" } else { "disabled" });
    if !launch.system_prompt.trim().is_empty() {
        line("developer_instructions", launch.system_prompt);
    }
    text.push_str(FIXED);
    if off.image_generation {
        text.push_str("image_generation = false\n");
    }
    if off.shell {
        text.push_str("shell_tool = false\n");
    }
    if let Some(base_url) = launch.base_url {
        let _ = write!(
            text,
            "\n[model_providers.{PROVIDER}]\nname = \"massgen\"\nbase_url = {}\n\
             wire_api = \"responses\"\nrequires_openai_auth = true\n",
            toml_string(base_url)
        );
    }
    if !launch.bridge.url.is_empty() {
        let _ = write!(
            text,
            "\n[mcp_servers.{BRIDGE_SERVER}]\nurl = {}\nbearer_token_env_var = \"{BRIDGE_TOKEN_VARIABLE}\"\n\
             default_tools_approval_mode = \"approve\"\nrequired = true\n\
             startup_timeout_sec = 30\ntool_timeout_sec = 86400\n",
            toml_string(&launch.bridge.url)
        );
    }
    text
}

/// What every start sets the same way. It ends inside `[features]`, so the switches that
/// depend on the config follow it.
const FIXED: &str = "\
check_for_update_on_startup = false
suppress_unstable_features_warning = true

[history]
persistence = \"none\"

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = \"none\"
log_user_prompt = false

[agents]
enabled = false

[shell_environment_policy]
ignore_default_excludes = false

[sandbox_workspace_write]
network_access = true

[features]
plugins = false
goals = false
view_image = false
";

/// `value` as a TOML basic string: quotes, backslashes and control characters escaped.
pub fn toml_string(value: &str) -> String {
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for character in value.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push('\t'),
            '\r' => quoted.push_str("\\r"),
            control if control.is_control() && (control as u32) < 0x80 => {
                let _ = write!(quoted, "\\u{:04X}", control as u32);
            }
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    quoted
}
