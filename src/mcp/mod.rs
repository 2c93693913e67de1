//! MCP servers an agent may use: clients (rmcp behind [`McpClient`]), tool naming
//! `mcp__<server>__<tool>`, filters, timeouts and the circuit breaker.

pub mod breaker;
pub mod bridge;
mod client;
pub mod naming;
mod rmcp_client;
mod servers;

pub use client::{CallResult, McpClient, McpError, RemoteTool, describe_binary};
pub use rmcp_client::{RmcpClient, connect};
pub use servers::{Connector, McpServers, Report};
