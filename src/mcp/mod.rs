//! MCP servers an agent may use: clients (massgen's own, behind [`McpClient`]), tool naming
//! `mcp__<server>__<tool>`, filters, timeouts and the circuit breaker.

pub mod breaker;
pub mod bridge;
mod client;
mod client_http;
mod client_stdio;
mod code_files;
pub mod code_tools;
mod jsonrpc;
pub mod naming;
mod native_client;
mod servers;
mod waiters;

pub use client::{CallResult, McpClient, McpError, RemoteTool, describe_binary};
pub use native_client::{NativeClient, connect};
pub use servers::{Connector, McpServers, Report};
