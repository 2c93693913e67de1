//! `massgen eval` end to end: an in-test provider whose models answer right with known
//! probabilities checks the reported intervals and that voting beats one model; the real
//! binary is killed mid-run and resumed; the budget and a changed dataset through the CLI.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/mock_llm.rs"]
mod mock_llm;

mod accuracy;
mod cli;
mod provider;
mod resume;
