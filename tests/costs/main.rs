//! Tokens and costs: the usage of every model call in scripted turns, and the cost budget
//! over real HTTP.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/mock_llm.rs"]
mod mock_llm;

mod budget;
mod usage;
