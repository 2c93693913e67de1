//! Agent CLIs as backends: Claude Code, Codex and the Gemini CLI run as child processes in
//! the agent's workspace; their JSON streams become stream events, and massgen's tools reach
//! them through a loopback MCP bridge.

pub mod claude_code;
pub mod dialect;
pub mod event;
