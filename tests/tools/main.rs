//! Tools: MCP against real servers (the test peers in `tests/peers/`), whole turns where
//! scripted agents use their tools, and tools a provider ran itself.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../peers/harness.rs"]
mod harness;

mod code_tools;
mod custom;
mod execution;
mod mcp;
mod provider;
mod scenarios;
