//! The orchestrator: runs agents in parallel rounds, coordinates answers and votes, and
//! has the winner present the final answer. Everything it does is reported as `Event`s.

mod agent_link;
mod agent_round;
mod call_meter;
mod channel;
pub mod coordination;
mod emitter;
mod inbox;
mod milestones;
pub mod novelty;
mod presentation;
pub mod prompts;
pub mod replay;
mod run_logs;
mod runtime;
mod toolset;
mod turn;

pub use replay::{ReplayOptions, spawn_replay};
pub use runtime::{OrchestratorHandle, RuntimeOptions, spawn};
pub use toolset::ToolSetup;
