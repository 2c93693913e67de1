//! `events.jsonl`: every event of a turn, one JSON object per line, flushed as written.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

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

/// The longest line read back: an event holds at most one model response, question or
/// tool output, each capped well below this even when escaped as JSON.
pub const MAX_EVENT_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Reads an `events.jsonl` whole. A torn last line (from a crash) is skipped. For a log
/// that may be large, [`each_event`] holds one line at a time.
pub fn read_events(path: &Path) -> io::Result<Vec<Event>> {
    let mut events = Vec::new();
    each_event(path, |event| events.push(event))?;
    Ok(events)
}

/// Hands every event of an `events.jsonl` to `take`, in order, holding one line at a time
/// (at most [`MAX_EVENT_LINE_BYTES`]). Only a regular file is read. A torn last line (from
/// a crash) is skipped; a bad line before the last is an error.
pub fn each_event(path: &Path, mut take: impl FnMut(Event)) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, crate::bounded_file::open_regular(path)?);
    let mut line = Vec::new();
    let mut bad_line: Option<io::Error> = None;
    let mut number = 0;
    while next_line(&mut reader, &mut line, path, number + 1)? {
        number += 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        if let Some(error) = bad_line.take() {
            return Err(error);
        }
        match serde_json::from_slice(&line) {
            Ok(event) => take(event),
            Err(error) => {
                bad_line = Some(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}:{number}: {error}", path.display()),
                ));
            }
        }
    }
    Ok(())
}

/// Reads the next line (without its newline) into `line`; false at the end of the file.
/// A line longer than [`MAX_EVENT_LINE_BYTES`] is an error, found without holding it.
fn next_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    path: &Path,
    number: usize,
) -> io::Result<bool> {
    line.clear();
    let mut read_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (piece, ended) = match buffer.iter().position(|byte| *byte == b'\n') {
            Some(end) => (&buffer[..end], true),
            None => (buffer, false),
        };
        if line.len() + piece.len() > MAX_EVENT_LINE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}:{number}: a line longer than {} MiB; massgen never writes one, so \
                     the log is not massgen's",
                    path.display(),
                    MAX_EVENT_LINE_BYTES / (1024 * 1024)
                ),
            ));
        }
        line.extend_from_slice(piece);
        let used = piece.len() + usize::from(ended);
        reader.consume(used);
        if ended {
            return Ok(true);
        }
    }
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
