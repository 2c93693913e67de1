//! The `massgen` command line through the real binary: automation output, configs and
//! quick setup, `--continue`, the offline demo, errors and exit codes, `--generate-config`,
//! `--local`, `massgen logs`, plan flags, restarts and sessions read from standard input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

#[path = "../support/mock_llm.rs"]
mod mock_llm;

mod common;

mod approval_files;
mod automation;
mod config;
mod continue_flag;
mod custom_tools;
mod demo;
mod errors;
mod eval_criteria;
mod generate_config;
mod local;
mod logs;
mod logs_summary_votes;
mod plan;
mod restarts;
mod sessions;
mod steering;
mod strategy;
