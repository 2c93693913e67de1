//! `massgen serve` over real HTTP: completions whole and streamed, models, a conversation's
//! history reaching the agents, an OpenAI-shaped error for each status, the concurrency
//! limit, a client that disconnects mid-stream, SIGTERM with a turn running, and steering a
//! running turn by its id.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/mock_llm.rs"]
mod mock_llm;

#[allow(dead_code)]
#[path = "../peers/harness.rs"]
mod harness;

mod api;
mod lifecycle;
mod openai_client;
mod polish;
mod served;
mod steer;
