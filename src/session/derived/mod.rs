//! The log files derived from a turn's `events.jsonl` (the source of truth), written beside
//! it when the turn ends: `coordination_events.json`, a `vote.json` per vote and an
//! `answer.txt` per answer under `agent_<id>/<time>/`, `agent_outputs/`,
//! `metrics_summary.json` and `metrics_events.json`. Each is written atomically, so a kill never leaves half a file.
//! The log is read once, a line at a time, and never held whole (`stream.rs`).

mod agents;
mod coordination;
mod coordination_entries;
mod grid;
mod metadata;
mod metrics;
mod rounds;
mod status;
mod stream;
mod table;
mod table_cells;
mod tool_runs;

use std::io;

pub use agents::DerivedFile;
pub use coordination::coordination_events;
pub use metadata::execution_metadata;
pub use metrics::{metrics_events, metrics_summary};
pub use status::StatusTracker;
pub use stream::{read_compacted, write_derived};
pub use table::coordination_table;

use super::pretty_json;
use crate::protocol::Event;

/// Builds one derived file's contents from the turn's events.
type Builder = dyn Fn(&[Event]) -> Vec<u8>;

/// Every derived file of a turn, as (path relative to the attempt directory, contents),
/// built in memory from every event.
#[cfg(test)]
pub fn derive(events: &[Event]) -> Vec<DerivedFile> {
    let mut files = Vec::new();
    let _ = each_compacted(events, |file| {
        files.push(file);
        Ok(())
    });
    files.extend(agents::outputs(events));
    files
}

/// Builds the turn's derived files but `agent_outputs/` (which the end-of-turn pass
/// streams) one at a time and hands each to `take` before the next is built, so only one
/// file's contents is in memory at once (the metrics and coordination files of a long
/// turn are hundreds of kilobytes each). `events` may be compacted (`stream.rs`).
fn each_compacted(
    events: &[Event],
    mut take: impl FnMut(DerivedFile) -> io::Result<()>,
) -> io::Result<usize> {
    let singles: [(&str, &Builder); 5] = [
        ("coordination_events.json", &|events| {
            pretty_json(&coordination_events(events))
        }),
        ("metrics_summary.json", &|events| {
            pretty_json(&metrics_summary(events))
        }),
        ("metrics_events.json", &|events| {
            pretty_json(&metrics_events(events))
        }),
        ("status.json", &|events| pretty_json(&final_status(events))),
        ("coordination_table.txt", &|events| {
            coordination_table(events).into_bytes()
        }),
    ];
    let mut count = 0;
    for (name, build) in singles {
        take((name.into(), build(events)))?;
        count += 1;
    }
    for file in agents::answers_and_votes(events) {
        take(file)?;
        count += 1;
    }
    Ok(count)
}

/// `status.json` as the turn left it: stamped with the time of its last event.
pub fn final_status(events: &[Event]) -> serde_json::Value {
    let last = events
        .last()
        .map_or(jiff::Timestamp::UNIX_EPOCH, |event| event.at);
    StatusTracker::from_events(events).to_json(last)
}

#[cfg(test)]
mod tests;
