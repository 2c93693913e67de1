//! Executes the tool calls that are not workflow calls, one agent's at a time.

use futures::future::BoxFuture;

use crate::backend::{ToolCall, ToolSpec};
use crate::protocol::EventMsg;
use crate::workspace::ContextRootSpec;

/// What a tool call returned; `ok: false` results go back to the model as errors.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutcome {
    pub ok: bool,
    pub output: String,
}

/// A call's outcome and what the user should hear about it (a refused path, an MCP
/// server pausing or coming back).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    pub outcome: ToolOutcome,
    pub events: Vec<EventMsg>,
}

impl From<ToolOutcome> for ToolResult {
    fn from(outcome: ToolOutcome) -> Self {
        Self {
            outcome,
            events: Vec::new(),
        }
    }
}

/// One agent's tools besides the workflow tools.
pub trait ToolRouter: Send + Sync {
    /// The tools offered to the agent's model.
    fn tools(&self) -> Vec<ToolSpec>;

    /// Runs one call. Never fails: problems become an error outcome the model can read.
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult>;

    /// For a call that writes a file (`write_file`, `edit_file`): the change as a unified
    /// diff against the file on disk, capped; `None` for any other call.
    fn write_preview(&self, tool: &str, arguments: &str) -> Option<String> {
        let _ = (tool, arguments);
        None
    }

    /// The `category` of the custom tool named `tool` (not `default`); `None` for others.
    fn category(&self, tool: &str) -> Option<String> {
        let _ = tool;
        None
    }

    /// What a program the agent runs itself (an agent CLI) may touch now: its workspace
    /// (where it runs) and the paths the agent may read or write; `None` without a
    /// workspace.
    fn process_plan(&self, network: bool) -> Option<crate::sandbox::Plan> {
        let _ = network;
        None
    }

    /// The agent starts (`true`) or ends its final presentation as the winner: the only
    /// time context paths with `permission: write` may be written.
    fn set_presenting(&self, presenting: bool) {
        let _ = presenting;
    }

    /// The paths attached to the current question, readable (or writable by the winner)
    /// besides the config's context paths.
    fn set_turn_context(&self, attached: &[ContextRootSpec]) {
        let _ = attached;
    }
}

/// A router with no tools: every call is answered with an error naming the tool.
pub struct NoTools;

impl ToolRouter for NoTools {
    fn tools(&self) -> Vec<ToolSpec> {
        Vec::new()
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolResult> {
        Box::pin(std::future::ready(ToolResult::from(unavailable(
            &call.name,
        ))))
    }
}

/// The answer to a call of a tool the agent was not given.
pub fn unavailable(name: &str) -> ToolOutcome {
    ToolOutcome {
        ok: false,
        output: format!(
            "Tool `{name}` is not available. Use only the tools you were given, and finish \
             with `new_answer` or `vote`."
        ),
    }
}
