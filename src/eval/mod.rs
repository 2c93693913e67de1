//! `massgen eval`: runs a dataset's questions through configs and strategies, scores the
//! answers, and shows which strategy is worth its cost.

pub mod demo;
pub mod progress;
pub mod record;
pub mod runner;
