//! MassGen coordination keys set in YAML change what happens: each test runs the turn with
//! and without its key, so it fails if the key is ignored. (Keys tested elsewhere: planning
//! mode and its instruction in `tests/plan/planning_mode.rs`, broadcast in `broadcast.rs`,
//! restarts in `post_evaluation.rs`, injection and round time limits in `updates.rs`,
//! novelty, answer limits and presets in `coordination.rs`.)

pub mod common;

mod answer_order;
mod broadcasts;
mod decomposition;
mod fairness;
mod final_answer;
mod memory;
mod task_plan;
mod voting;
