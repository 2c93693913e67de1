//! Agent CLIs run for real (the pinned CLIs in `tests/peers/node_modules`) against in-test
//! model servers speaking each CLI's provider protocol, with massgen's tool bridge as their
//! MCP server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../peers/harness.rs"]
mod harness;

#[path = "../support/mod.rs"]
mod support;

mod claude_code;
mod claude_code_turn;
mod codex;
mod codex_turn;
mod fake_claude_code;
mod fake_codex;
mod fake_gemini_cli;
mod fake_script;
mod gemini_cli;
mod gemini_cli_turn;
mod script;
mod turn;
mod validate;
