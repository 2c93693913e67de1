//! The Gemini CLI's `settings.json` for one agent: how it signs in, the bridge as its MCP
//! server, which of its own tools it offers, and everything that would reach the internet
//! on its own (usage statistics, telemetry, auto-update, IDE integration) switched off.

use serde_json::{Map, Value, json};

use crate::backend::agent_cli::dialect::{BridgeAddress, CliOptions};
use crate::backend::agent_cli::event::BRIDGE_SERVER;

/// How the CLI signs in (`security.auth.selectedType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auth {
    /// `GEMINI_API_KEY` against the Gemini API (or the `GOOGLE_GEMINI_BASE_URL` given).
    ApiKey,
    /// Vertex AI (`GOOGLE_GENAI_USE_VERTEXAI` with a project or `GOOGLE_API_KEY`).
    Vertex,
    /// The user's "Login with Google", copied into the agent's CLI home.
    Login,
}

impl Auth {
    fn selected_type(self) -> &'static str {
        match self {
            Self::ApiKey => "gemini-api-key",
            Self::Vertex => "vertex-ai",
            Self::Login => "oauth-personal",
        }
    }
}

/// The CLI's own tools MassGen's gemini_cli backend never offers: massgen plans, asks and
/// remembers through its own tools.
const ALWAYS_EXCLUDED: [&str; 5] = [
    "enter_plan_mode",
    "exit_plan_mode",
    "save_memory",
    "ask_user",
    "write_todos",
];

/// The CLI's own web search tool.
pub const WEB_SEARCH_TOOL: &str = "google_web_search";

/// The settings file's contents.
pub fn settings(auth: Auth, bridge: &BridgeAddress, options: &CliOptions) -> Value {
    let mut excluded: Vec<String> = ALWAYS_EXCLUDED
        .iter()
        .map(|name| name.to_string())
        .collect();
    if !options.web_search {
        excluded.push(WEB_SEARCH_TOOL.into());
    }
    for name in &options.disallowed_tools {
        if !excluded.contains(name) {
            excluded.push(name.clone());
        }
    }
    let mut tools = Map::new();
    tools.insert("exclude".into(), json!(excluded));
    if !options.allowed_tools.is_empty() {
        tools.insert("allowed".into(), json!(options.allowed_tools));
    }
    json!({
        "security": { "auth": { "selectedType": auth.selected_type() } },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
        "ide": { "enabled": false },
        "model": { "disableLoopDetection": true },
        "tools": tools,
        "mcpServers": servers(bridge),
    })
}

/// The bridge as the CLI's one MCP server; none for a start without a bridge.
fn servers(bridge: &BridgeAddress) -> Value {
    if bridge.url.is_empty() {
        return json!({});
    }
    json!({
        BRIDGE_SERVER: {
            "httpUrl": bridge.url,
            "headers": { "Authorization": format!("Bearer {}", bridge.token) },
            "trust": true,
        }
    })
}

/// `--approval-mode` for MassGen's `permission_mode` (Claude Code's names or the CLI's
/// own). Headless runs never prompt: in `default` the CLI offers no tool that would need
/// a confirmation, in `auto_edit` the edits but not the shell. Without one, `yolo`, as
/// MassGen runs it.
pub fn approval_mode(permission_mode: Option<&str>) -> &'static str {
    match permission_mode {
        Some("plan") => "plan",
        Some("acceptEdits" | "auto_edit") => "auto_edit",
        Some("default") => "default",
        _ => "yolo",
    }
}
