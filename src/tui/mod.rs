//! The full-screen terminal front end (issue 4, in progress; `--display tui` for now): the
//! state that folds the orchestrator's events, pure rendering, key handling and the app
//! loop. Still to come: ratatui-textarea composer, modals, markdown with highlighted code,
//! `@path` and slash-command popups, and becoming the default front end.

pub mod app;
pub mod composer;
pub mod modal;
pub mod render;
mod run;
pub mod state;
mod terminal;
#[cfg(test)]
mod test_support;
pub mod theme;

pub use run::run;
