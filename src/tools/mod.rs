//! Tools offered to models: the workflow tools that end a round (`new_answer`, `vote`)
//! and the [`ToolRouter`] that executes every other tool call.

mod router;
pub mod workflow;

pub use router::{NoTools, ToolOutcome, ToolResult, ToolRouter, unavailable};
pub use workflow::WorkflowCall;
