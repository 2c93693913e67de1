//! Agent CLIs as backends: Claude Code, Codex and the Gemini CLI run as child processes in
//! the agent's workspace; their JSON streams become stream events, and massgen's tools reach
//! them through a loopback MCP bridge.

pub mod dialect;
pub mod event;
pub mod gemini_cli;
