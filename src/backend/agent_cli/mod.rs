//! Agent CLIs as backends: Claude Code, Codex and the Gemini CLI run as child processes in
//! the agent's workspace; their JSON streams become stream events, and massgen's tools reach
//! them through a loopback MCP bridge.

mod backend;
pub mod build;
pub mod claude_code;
pub mod codex;
pub mod dialect;
pub mod event;
pub mod gemini_cli;
pub mod process;
pub mod session;

pub use backend::{CliBackend, CliSetup};
pub mod found;
