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
mod pretty;
mod rounds;
mod status;
mod stream;
mod table;
mod table_cells;
mod tool_runs;

use std::io::{self, Write};
use std::path::Path;

pub use agents::DerivedFile;
pub use coordination::write_coordination_events;
pub use metadata::execution_metadata;
pub use metrics::{write_metrics_events, write_metrics_summary};
pub use status::StatusTracker;
pub use stream::{read_compacted, write_derived};
#[cfg(test)]
pub use table::coordination_table;
pub use table::write_coordination_table;

use crate::protocol::Event;

/// Writes one derived file's contents, built from the turn's events, to a writer.
type Builder = dyn Fn(&[Event], &mut dyn Write) -> io::Result<()>;

/// Every derived file of a turn, as (path relative to the attempt directory, contents),
/// built in memory from every event.
#[cfg(test)]
pub fn derive(events: &[Event]) -> Vec<DerivedFile> {
    let mut files = Vec::new();
    let _ = each_compacted(events, |relative, write| {
        let mut contents = Vec::new();
        write(&mut contents)?;
        files.push((relative.to_path_buf(), contents));
        Ok(())
    });
    files.extend(agents::outputs(events));
    files
}

/// Builds the turn's derived files but `agent_outputs/` (which the end-of-turn pass
/// streams) one at a time and hands each, as a function writing its contents, to `take`
/// before the next is built: only one file is in memory at once, and the coordination
/// table, as wide as the team and as long as the turn (tens of megabytes for 96 agents),
/// not even that. `events` may be compacted (`stream.rs`).
fn each_compacted(
    events: &[Event],
    mut take: impl FnMut(&Path, &dyn Fn(&mut dyn Write) -> io::Result<()>) -> io::Result<()>,
) -> io::Result<usize> {
    let singles: [(&str, &Builder); 5] = [
        ("coordination_events.json", &write_coordination_events),
        ("metrics_summary.json", &write_metrics_summary),
        ("metrics_events.json", &write_metrics_events),
        ("status.json", &|events, out| {
            pretty_json_to(&final_status(events), out)
        }),
        ("coordination_table.txt", &write_coordination_table),
    ];
    let mut count = 0;
    for (name, build) in singles {
        take(Path::new(name), &|out| build(events, out))?;
        count += 1;
    }
    agents::answers_and_votes(events, |(relative, contents)| {
        count += 1;
        take(&relative, &|out| out.write_all(&contents))
    })?;
    Ok(count)
}

/// `value` as pretty JSON with a final newline (as [`crate::session::pretty_json`] gives it), written
/// straight to `out`.
fn pretty_json_to(value: &serde_json::Value, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

/// `status.json` as the turn left it: stamped with the time of its last event.
pub fn final_status(events: &[Event]) -> serde_json::Value {
    let last = events
        .last()
        .map_or(jiff::Timestamp::UNIX_EPOCH, |event| event.at);
    StatusTracker::from_events(events).to_json(last)
}

#[cfg(test)]
mod large_team_tests;
#[cfg(test)]
mod tests;
