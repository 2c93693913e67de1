//! Wire tests: every provider protocol against an in-test server that streams the
//! provider's exact SSE bytes, including errors, rate limits, cut and stalled streams; and
//! a whole turn of three agents, each on its own protocol.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/mock_llm.rs"]
mod mock_llm;

mod anthropic;
mod attachments;
mod checklist;
mod context_recovery;
mod council;
mod custom_tools;
mod debate;
mod decomposition;
mod draft_approach;
mod faults;
mod gemini;
mod harness;
mod multi_protocol;
mod openai_chat;
mod openai_responses;
mod planning;
mod read_media;
