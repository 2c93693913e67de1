//! One agent's tool router: its built-in file and command tools (when it has a workspace)
//! and its MCP servers, filtered by the backend's allow and exclude lists. Refused paths
//! and MCP servers pausing or coming back are passed on as events with the result.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tokio::sync::mpsc;

use super::builtin::BuiltinTools;
use super::router::{ToolResult, ToolRouter, unavailable};
use crate::backend::{ToolCall, ToolSpec};
use crate::config::ToolSettings;
use crate::mcp::McpServers;
use crate::protocol::EventMsg;
use crate::tools::ContextRoot;
use crate::workspace::ContextRootSpec;

pub struct AgentToolRouter {
    settings: ToolSettings,
    builtin: Option<Arc<BuiltinTools>>,
    mcp: Option<Arc<McpServers>>,
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
            notices: Arc::new(Mutex::new(notices)),
        }
    }

    /// The events that arrived since the last call (MCP servers pausing, recovering).
    pub fn take_notices(&self) -> Vec<EventMsg> {
        take(&self.notices)
    }
}

impl ToolRouter for AgentToolRouter {
    fn tools(&self) -> Vec<ToolSpec> {
        let builtin = self.builtin.iter().flat_map(|tools| tools.specs());
        let mcp = self.mcp.iter().flat_map(|servers| servers.tools());
        builtin
            .chain(mcp)
            .filter(|spec| self.settings.offers(&spec.name))
            .collect()
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        let offered = self.settings.offers(&call.name);
        let builtin = self
            .builtin
            .clone()
            .filter(|tools| offered && tools.handles(&call.name));
        let mcp = self
            .mcp
            .clone()
            .filter(|servers| offered && servers.handles(&call.name));
        let notices = Arc::clone(&self.notices);
        Box::pin(async move {
            let mut events = Vec::new();
            let outcome = if let Some(tools) = builtin {
                let done = tools.call(&call.name, &call.arguments).await;
                if let Some(refusal) = done.refusal {
                    events.push(EventMsg::ToolRefused {
                        tool: call.name.clone(),
                        path: refusal.path,
                        reason: refusal.reason,
                    });
                }
                done.outcome
            } else if let Some(servers) = mcp {
                servers.call(&call.name, &call.arguments).await
            } else {
                unavailable(&call.name)
            };
            events.extend(take(&notices));
            ToolResult { outcome, events }
        })
    }

    fn set_turn_context(&self, attached: &[ContextRootSpec]) {
        if let Some(tools) = &self.builtin {
            tools
                .policy()
                .set_turn_context(attached.iter().map(ContextRoot::from).collect());
        }
    }

    fn set_presenting(&self, presenting: bool) {
        if let Some(tools) = &self.builtin {
            tools.policy().set_context_writes(presenting);
        }
    }
}

impl From<&ContextRootSpec> for ContextRoot {
    fn from(spec: &ContextRootSpec) -> Self {
        Self {
            path: spec.path.clone(),
            permission: spec.permission,
            protected: spec.protected.clone(),
        }
    }
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
