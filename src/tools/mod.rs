//! Tools offered to models: the workflow tools that end a round (`new_answer`, `vote`),
//! the built-in file and command tools with their path permissions, and the
//! [`ToolRouter`] that executes every other tool call.

pub mod builtin;
pub mod critique;
pub mod custom;
pub mod permissions;
pub mod post_evaluation;
pub mod rank;
pub mod read_media;
mod router;
pub mod workflow;

pub use builtin::{BuiltinOutcome, BuiltinTools};
pub use permissions::{Access, ContextRoot, PathPolicy, Refusal};
pub use router::{NoTools, ToolOutcome, ToolResult, ToolRouter, unavailable};
pub use workflow::WorkflowCall;
