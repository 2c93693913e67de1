//! The orchestrator: runs agents in parallel rounds, coordinates answers and votes, and
//! has the winner present the final answer. Everything it does is reported as `Event`s.

mod agent_link;
mod agent_round;
mod agent_router;
mod broadcast;
mod channel;
mod checklist_tool;
mod cli_round;
mod code_tools_setup;
mod context_budget;
mod context_summary;
pub mod coordination;
pub mod criteria_generator;
mod emitter;
pub mod event_queue;
mod handle;
mod inbox;
mod milestones;
mod model_call;
pub mod novelty;
mod override_after;
pub mod planning_mode;
mod post_evaluation;
mod presentation;
pub mod prompts;
mod question_attachments;
mod redacting;
mod replace_agents;
pub mod replay;
mod round_clock;
mod round_task;
mod run_logs;
mod runtime;
mod submit;
mod task_tools;
mod toolset;
mod turn;
mod turn_tools;

pub use agent_router::AgentToolRouter;
pub use replace_agents::{AgentsLoader, config_loader};
pub use replay::{ReplayOptions, spawn_replay};
pub use runtime::{OrchestratorHandle, RuntimeOptions, spawn};
pub use toolset::ToolSetup;
