//! Config mistakes through the `massgen` binary: each module is one kind of mistake, and
//! every one is reported as `error: FILE:LINE:COL: …` (or a warning) with a help line by
//! `--validate` and a real run alike, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod common;

mod attachments;
mod backend;
mod massgen;
mod new_user;
mod scripted;
mod settings;
mod yaml;
