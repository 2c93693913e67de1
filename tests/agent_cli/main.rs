//! Agent CLIs run for real (the pinned npm packages in `tests/peers/node_modules`), each
//! against an in-test model server speaking its provider's protocol.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../peers/harness.rs"]
mod harness;

mod codex;
mod fake_codex;
