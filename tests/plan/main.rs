//! Planning and Execute: scenario tests of planning turns and plan execution, config
//! planning mode, what the offline demo's modes show, how an executed plan ends, and saved
//! plans surviving a killed run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod demo_modes;
mod kills;
mod outcome;
mod planning;
mod planning_mode;
