//! Sessions: runs killed mid-turn and continued through the binary, `--continue` with its
//! history shown in `/inspect`, and `massgen replay`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod binary;
mod continue_session;
mod replay;
