//! MassGen's own files against massgen (the wheel pinned in `tests/peers/massgen-wheel.pin`,
//! unpacked by `.ci/run`): every config it ships through `--validate`, and its readers of
//! logs and sessions on what massgen wrote.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[allow(dead_code)]
#[path = "../peers/harness.rs"]
mod harness;

mod configs;
mod decision_keys;
mod readers;
mod upload_files;
