//! The `.massgen/` directory: run log directories, per-turn event logs, durable writes.

mod atomic;
mod event_log;
mod log_dir;

pub use atomic::write_atomic;
pub use event_log::read_events;
pub use log_dir::{RunLogDir, TurnLog};
