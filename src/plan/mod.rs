//! Plans: the task-plan model and its nine in-process tools, saved plans under
//! `.massgen/plans/` (planning → ready → executing → completed | failed), how execution
//! diverged from a plan, and the planning and execution prompts.
//!
//! Uses protocol, config, and the durable-write and tree-copy helpers of session and
//! workspace; nothing of tools, orchestrator or the front ends.

mod context;
mod diff;
mod error;
pub mod fault;
mod parse;
mod prompts;
mod storage;
mod task;
mod task_de;
mod tools;

pub use context::{ungranted_context, ungranted_warning};
pub use diff::{Modified, PlanDiff, diff};
pub use error::PlanError;
pub use parse::{MAX_PLAN_TASKS, parse_plan, validate};
pub use prompts::{EXECUTION_GUIDANCE, execution_prompt, planning_prompt, progress_line};
pub use storage::{
    ExecutionEnd, FinalizeError, MAX_PLAN_FILE_BYTES, NewPlan, PlanMetadata, PlanStore,
    ResolveError, SavedPlan,
};
pub use task::{Task, TaskPlan, plan_file_bytes};
pub use tools::{TOOL_NAMES, TaskPlanner, ToolSchema, is_read_only, schemas};
