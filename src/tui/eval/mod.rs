//! The full-screen display of `massgen eval`: live progress per contender while it runs,
//! then the summary table and the accuracy-against-cost chart.

mod chart;
mod running;
mod screen;
#[cfg(test)]
mod snapshot_tests;
mod state;
mod table;
#[cfg(test)]
pub(crate) mod test_summary;
mod view;

pub use screen::{EvalEnd, run};
pub use state::EvalHeader;
