//! Executes the tool calls that are not workflow calls.

use futures::future::BoxFuture;

use crate::backend::{ToolCall, ToolSpec};

/// What a tool call returned; `ok: false` results go back to the model as errors.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutcome {
    pub ok: bool,
    pub output: String,
}

pub trait ToolRouter: Send + Sync {
    /// The tools offered to models besides the workflow tools.
    fn tools(&self) -> Vec<ToolSpec>;

    /// Runs one call. Never fails: problems become an error outcome the model can read.
    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolOutcome>;
}

/// A router with no tools: every call is answered with an error naming the tool.
pub struct NoTools;

impl ToolRouter for NoTools {
    fn tools(&self) -> Vec<ToolSpec> {
        Vec::new()
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'static, ToolOutcome> {
        Box::pin(std::future::ready(ToolOutcome {
            ok: false,
            output: format!(
                "Tool `{}` is not available. Use only the tools you were given, and finish \
                 with `new_answer` or `vote`.",
                call.name
            ),
        }))
    }
}
