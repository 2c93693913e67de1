//! The real binary's full-screen display in a pseudo-terminal: each module drives one
//! part of it with keys and reads the screen.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod agents;
mod answer_now;
mod approvals;
mod demo_modes;
mod eval;
mod focus;
mod grid;
mod history;
mod input;
mod keys;
mod output_file;
mod plan_outcome;
mod polish;
mod runs;
mod strategy;
mod streaming;
mod views;
mod warnings;
