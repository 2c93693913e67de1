//! massgen: several LLM agents on one task at once. They answer in parallel, read each
//! other's answers, refine or vote, and the winner presents the final answer.
//!
//! The layers, the event flow from a provider's bytes to the screen, and a map of every
//! module: ARCHITECTURE.md at the repository's root.

pub mod approvals;
pub mod backend;
pub mod bounded_file;
pub mod cli;
pub mod config;
pub mod eval;
pub mod headless;
pub mod local_time;
pub mod mcp;
pub mod orchestrator;
pub mod plan;
pub mod protocol;
pub mod redact;
pub mod sandbox;
pub mod sanitize;
pub mod seeded;
pub mod serve;
pub mod session;
pub mod stats;
pub mod stderr_tail;
pub mod text;
pub mod tools;
pub mod tui;
pub mod workspace;
