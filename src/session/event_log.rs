//! `events.jsonl`: every event of a turn, one JSON object per line, flushed as written.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use super::event_lines::EventLines;
use crate::protocol::Event;

pub struct EventLog {
    file: File,
    line: Vec<u8>,
}

impl EventLog {
    /// Opens (creating or appending to) the log at `path`; its directory must exist.
    pub fn open(path: &Path) -> io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Self {
            file,
            line: Vec::with_capacity(256),
        })
    }

    /// Appends one event as one line with a single write, so a crash cuts at most the
    /// line being written.
    pub fn append(&mut self, event: &Event) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, event)?;
        self.line.push(b'\n');
        self.file.write_all(&self.line)
    }
}

/// Reads an `events.jsonl` whole. A torn last line (from a crash) is skipped. For a log
/// that may be large, [`each_event`] holds one line at a time.
pub fn read_events(path: &Path) -> io::Result<Vec<Event>> {
    let mut events = Vec::new();
    each_event(path, |event| events.push(event))?;
    Ok(events)
}

/// Hands every event of an `events.jsonl` to `take`, in order, holding one line at a time
/// (see [`EventLines`]: regular files only, lines of bounded length, a torn last line
/// skipped, a bad line before the last an error).
pub fn each_event(path: &Path, mut take: impl FnMut(Event)) -> io::Result<()> {
    let mut lines = EventLines::open(path)?;
    while let Some(event) = lines.next_event()? {
        take(event);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EventMsg;

    fn event(seq: u64) -> Event {
        Event {
            seq,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: None,
            msg: EventMsg::Warning {
                message: format!("w{seq}"),
            },
        }
    }

    #[test]
    fn writes_one_line_per_event_and_reads_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let mut log = EventLog::open(&path).unwrap();
        log.append(&event(1)).unwrap();
        log.append(&event(2)).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
        assert_eq!(read_events(&path).unwrap(), vec![event(1), event(2)]);
    }

    #[test]
    fn a_torn_last_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let mut log = EventLog::open(&path).unwrap();
        log.append(&event(1)).unwrap();
        drop(log);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"seq\":2,\"at\":").unwrap();
        assert_eq!(read_events(&path).unwrap(), vec![event(1)]);
    }
}
