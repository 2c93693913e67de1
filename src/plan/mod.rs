//! Plans: the task-plan model and its nine in-process tools, saved plans under
//! `.massgen/plans/` (planning → ready → executing → completed | failed), how execution
//! diverged from a plan, and the planning and execution prompts.
//!
//! Uses protocol, config, and the durable-write and tree-copy helpers of session and
//! workspace; nothing of tools, orchestrator or the front ends.
