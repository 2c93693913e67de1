//! Agent CLIs run for real (the pinned ones in tests/peers/node_modules) with their
//! dialects' command plans, each against an in-test server speaking its provider's
//! protocol and massgen's tool bridge.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../peers/harness.rs"]
mod harness;

mod claude_code;
mod fake_claude_code;
