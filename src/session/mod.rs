//! The `.massgen/` directory: run log directories, per-turn event logs, the files derived
//! from them (`status.json` also live while a turn runs), durable writes.

mod approval_ledger;
mod atomic;
pub mod derived;
mod event_lines;
mod event_log;
mod history;
mod live_status;
mod lock;
mod log_dir;
mod pricing;
mod recorded;
mod registry;
mod replay;
mod resume;
mod state_files;
mod store;
mod turn_links;
mod votes;

pub use approval_ledger::{ApprovalLedger, LEDGER_FILE, LedgerLine, read_ledger};
pub use atomic::{pretty_json, write_atomic, write_atomic_with};
pub use event_lines::{EventLines, MAX_EVENT_LINE};
pub use event_log::read_events;
pub use lock::hold_session;
pub use log_dir::{RunLogDir, TurnLog, earlier_attempt_dirs};
pub use pricing::{
    CostEstimate, ModelPrice, PricingSource, estimate, format_usd, price_for, pricing_source,
};
#[cfg(test)]
pub(crate) use recorded::compact as compact_recorded;
pub use registry::{register, registry_path};
pub use replay::{EventLogs, Recording, ReplayError, event_logs, load_recording};
pub use resume::{PastTurn, SessionInfo, find_session, list_sessions};
pub use state_files::{METRICS_MAX, path_json, read_json};
pub use store::{SessionStore, TurnEnding};
pub use votes::{LedgerVote, VoteCounts, VoteFate, VoteLedger};
