//! The full-screen terminal front end, the default on a terminal: the state that folds the
//! orchestrator's events, pure rendering, the composer, modals, key handling and the app
//! loop.

pub mod agents_form;
mod agents_io;
pub mod app;
pub mod approval;
pub mod choices;
mod clocks;
pub mod complete;
pub mod composer;
pub mod eval;
pub mod export;
pub mod files;
pub mod focus;
pub mod frame;
pub mod modal;
mod open;
mod pacer;
pub mod question;
pub mod render;
mod run;
pub mod slash;
pub mod state;
mod steady;
mod terminal;
#[cfg(test)]
pub(crate) mod test_approvals;
#[cfg(test)]
pub(crate) mod test_plans;
#[cfg(test)]
pub(crate) mod test_strategy;
#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
pub(crate) mod test_votes;
pub mod theme;
pub mod view;

pub use run::{SessionEnd, TuiOptions, run};
