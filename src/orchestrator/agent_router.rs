//! One agent's tool router: its built-in file and command tools (when it has a workspace),
//! its MCP servers and its Python custom tools, filtered by the backend's allow and exclude
//! lists. Refused paths and MCP servers pausing or coming back are passed on as events
//! with the result.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tokio::sync::mpsc;

use crate::backend::{ToolCall, ToolSpec};
use crate::config::ToolSettings;
use crate::mcp::McpServers;
use crate::protocol::EventMsg;
use crate::tools::custom::CustomTools;
use crate::tools::read_media::{READ_MEDIA, ReadMedia};
use crate::tools::{
    Access, BuiltinTools, PathPolicy, Refusal, ToolOutcome, ToolResult, ToolRouter, unavailable,
};
use crate::workspace::ContextRootSpec;

pub struct AgentToolRouter {
    settings: ToolSettings,
    builtin: Option<Arc<BuiltinTools>>,
    mcp: Option<Arc<McpServers>>,
    custom: Option<Arc<CustomTools>>,
    /// MCP tools reached through the agent's code only (`enable_code_based_tools`).
    code_only: Vec<String>,
    /// MassGen's `read_media` (`enable_multimodal_tools`).
    read_media: Option<Arc<ReadMedia>>,
    /// MCP state changes reported since the last call.
    notices: Arc<Mutex<mpsc::UnboundedReceiver<EventMsg>>>,
}

impl AgentToolRouter {
    /// `notices` receives the `McpServerStatus` events of `mcp`'s report callback.
    pub fn new(
        settings: ToolSettings,
        builtin: Option<BuiltinTools>,
        mcp: Option<Arc<McpServers>>,
        notices: mpsc::UnboundedReceiver<EventMsg>,
    ) -> Self {
        Self {
            settings,
            builtin: builtin.map(Arc::new),
            mcp,
            custom: None,
            code_only: Vec::new(),
            read_media: None,
            notices: Arc::new(Mutex::new(notices)),
        }
    }

    /// Offers the agent's Python custom tools too, after the built-in and MCP tools.
    pub fn with_custom(mut self, custom: Option<Arc<CustomTools>>) -> Self {
        self.custom = custom;
        self
    }

    /// Stops offering these MCP tools (full names) directly: the agent calls them from code.
    pub fn with_code_only(mut self, code_only: Option<Vec<String>>) -> Self {
        self.code_only = code_only.unwrap_or_default();
        self
    }

    /// Offers MassGen's `read_media` too.
    pub fn with_read_media(mut self, read_media: Option<ReadMedia>) -> Self {
        self.read_media = read_media.map(Arc::new);
        self
    }

    /// The events that arrived since the last call (MCP servers pausing, recovering).
    pub fn take_notices(&self) -> Vec<EventMsg> {
        take(&self.notices)
    }
}

impl ToolRouter for AgentToolRouter {
    fn tools(&self) -> Vec<ToolSpec> {
        let builtin = self.builtin.iter().flat_map(|tools| tools.specs());
        let mcp = self
            .mcp
            .iter()
            .flat_map(|servers| servers.tools())
            .filter(|spec| !self.code_only.contains(&spec.name));
        let custom = self.custom.iter().flat_map(|tools| tools.specs());
        let read_media = self.read_media.iter().map(|_| ReadMedia::spec());
        let mut offered: Vec<ToolSpec> = Vec::new();
        // A user server named like a built-in one (`filesystem`) is hidden behind it:
        // providers refuse two tools of one name.
        for spec in builtin.chain(read_media).chain(mcp).chain(custom) {
            if self.settings.offers(&spec.name)
                && !offered.iter().any(|seen| seen.name == spec.name)
            {
                offered.push(spec);
            }
        }
        offered
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        let offered = self.settings.offers(&call.name);
        let builtin = self
            .builtin
            .clone()
            .filter(|tools| offered && tools.handles(&call.name));
        let mcp = self.mcp.clone().filter(|servers| {
            offered && servers.handles(&call.name) && !self.code_only.contains(&call.name)
        });
        let custom = self
            .custom
            .clone()
            .filter(|tools| offered && tools.handles(&call.name));
        let read_media = self
            .read_media
            .clone()
            .filter(|_| offered && call.name == READ_MEDIA);
        let notices = Arc::clone(&self.notices);
        let policy = self
            .builtin
            .as_ref()
            .map(|tools| Arc::clone(tools.policy()));
        Box::pin(async move {
            let mut usage = Vec::new();
            let (outcome, refusal) = if let Some(tool) = read_media {
                let done = tool.call(&call.arguments).await;
                usage = done.usage;
                (done.outcome, done.refusal)
            } else if let Some(tools) = builtin {
                let done = tools.call(&call.name, &call.arguments).await;
                (done.outcome, done.refusal)
            } else if let Some(servers) = mcp {
                let refused = policy
                    .and_then(|policy| check_mcp_paths(&policy, &call.name, &call.arguments).err());
                match refused {
                    Some(refusal) => {
                        let outcome = ToolOutcome {
                            ok: false,
                            output: refusal.reason.clone(),
                        };
                        (outcome, Some(refusal))
                    }
                    None => (servers.call(&call.name, &call.arguments).await, None),
                }
            } else if let Some(tools) = custom {
                (tools.call(&call.name, &call.arguments).await, None)
            } else {
                (unavailable(&call.name), None)
            };
            let mut events: Vec<EventMsg> = refusal
                .into_iter()
                .map(|refusal| EventMsg::ToolRefused {
                    tool: call.name.clone(),
                    path: refusal.path,
                    reason: refusal.reason,
                })
                .collect();
            events.extend(take(&notices));
            events.extend(usage);
            ToolResult { outcome, events }
        })
    }

    fn category(&self, tool: &str) -> Option<String> {
        self.settings
            .custom_tools
            .iter()
            .find(|custom| custom.offered_name() == tool)
            .map(|custom| custom.category.clone())
            .filter(|category| category != "default")
    }

    fn set_turn_context(&self, attached: &[ContextRootSpec]) {
        if let Some(tools) = &self.builtin {
            tools.policy().set_turn_context(attached.to_vec());
        }
    }

    fn process_plan(&self, network: bool) -> Option<crate::sandbox::Plan> {
        let policy = self.builtin.as_ref()?.policy();
        Some(policy.sandbox_plan(policy.workspace(), network))
    }

    fn write_preview(&self, tool: &str, arguments: &str) -> Option<String> {
        self.builtin
            .as_ref()
            .filter(|tools| self.settings.offers(tool) && tools.handles(tool))?
            .write_preview(tool, arguments)
    }

    fn set_presenting(&self, presenting: bool) {
        if let Some(tools) = &self.builtin {
            tools.policy().set_context_writes(presenting);
        }
    }
}

/// Argument names that hold paths in MCP tools (the filesystem server's and common ones).
const PATH_ARGUMENTS: [&str; 12] = [
    "path",
    "paths",
    "source",
    "destination",
    "source_path",
    "destination_path",
    "file",
    "file_path",
    "filename",
    "directory",
    "dir",
    "root",
];

/// An MCP call's path arguments that point somewhere definite (absolute, `~`, or with
/// `..`) must be paths this agent may touch, as for its built-in tools: written by tools
/// whose names say they write, read by the others.
fn check_mcp_paths(policy: &PathPolicy, tool: &str, arguments: &str) -> Result<(), Refusal> {
    let Ok(serde_json::Value::Object(arguments)) = serde_json::from_str(arguments) else {
        return Ok(());
    };
    let bare = tool
        .rsplit("__")
        .next()
        .unwrap_or(tool)
        .to_ascii_lowercase();
    let writes = [
        "write", "edit", "create", "move", "copy", "delete", "remove", "rename",
    ]
    .iter()
    .any(|verb| bare.contains(verb));
    let access = if writes { Access::Write } else { Access::Read };
    let mut roots = None;
    for (key, value) in &arguments {
        if !PATH_ARGUMENTS.contains(&key.as_str()) {
            continue;
        }
        let values: Vec<&str> = match value {
            serde_json::Value::String(text) => vec![text.as_str()],
            serde_json::Value::Array(items) => {
                items.iter().filter_map(|item| item.as_str()).collect()
            }
            serde_json::Value::Null
            | serde_json::Value::Bool(_)
            | serde_json::Value::Number(_)
            | serde_json::Value::Object(_) => Vec::new(),
        };
        for path in values {
            let definite = path.starts_with('/') || path.starts_with('~') || path.contains("..");
            if definite {
                roots
                    .get_or_insert_with(|| policy.on_disk())
                    .check(path, access)?;
            }
        }
    }
    Ok(())
}

fn take(notices: &Mutex<mpsc::UnboundedReceiver<EventMsg>>) -> Vec<EventMsg> {
    let mut events = Vec::new();
    if let Ok(mut receiver) = notices.lock() {
        while let Ok(event) = receiver.try_recv() {
            events.push(event);
        }
    }
    events
}

#[cfg(test)]
#[path = "agent_router_tests.rs"]
mod tests;
