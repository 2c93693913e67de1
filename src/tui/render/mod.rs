//! The widgets a frame is drawn from, each a pure function of the folded state and the
//! view: the header and tab bar, agent cards and their grid, the timeline and tallies, the
//! final view, the welcome view, the mode bar, the status bar and the completion list;
//! and the leaves they share (wrapping, formatting, Markdown, painting). Layout adapts
//! from 80×24 up: cards side by side when each gets 40 columns, a grid of them when each
//! fits 40×8 (`grid.rs`), else a tab bar and the focused card (`tui::frame` lays them out).

pub(crate) mod card;
pub(crate) mod checklist;
pub(crate) mod chrome;
pub(crate) mod final_view;
pub(crate) mod format;
pub mod grid;
mod inline;
mod line_kind;
pub(crate) mod mode_bar;
mod notice;
pub(crate) mod output;
pub(crate) mod paint;
mod partial;
pub(crate) mod popup;
pub(crate) mod rankings;
pub(crate) mod status_bar;
pub(crate) mod strategy_text;
pub(crate) mod tally;
pub(crate) mod text;
pub(crate) mod timeline;
pub(crate) mod timeline_text;
pub(crate) mod welcome;
pub(crate) mod wrap;

/// Narrowest card shown side by side with the others.
pub const MIN_CARD_WIDTH: u16 = grid::READABLE_WIDTH;

#[cfg(test)]
mod attachment_tests;
#[cfg(test)]
mod attempt_tests;
#[cfg(test)]
mod checklist_tests;
#[cfg(test)]
mod composer_tests;
#[cfg(test)]
mod context_tests;
#[cfg(test)]
mod fairness_tests;
#[cfg(test)]
mod final_view_tests;
#[cfg(test)]
mod grid_snapshot_tests;
#[cfg(test)]
mod header_tests;
#[cfg(test)]
mod input_tests;
#[cfg(test)]
mod label_tests;
#[cfg(test)]
mod more_calls_tests;
#[cfg(test)]
mod notice_tests;
#[cfg(test)]
mod persona_tests;
#[cfg(test)]
mod plan_outcome_tests;
#[cfg(test)]
mod plan_tests;
#[cfg(test)]
mod polish_tests;
#[cfg(test)]
mod provider_tool_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod stopped_tests;
#[cfg(test)]
mod strategy_tests;
#[cfg(test)]
mod streaming_tests;
#[cfg(test)]
mod subtask_tests;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod welcome_tests;
#[cfg(test)]
mod welcome_warnings_tests;
