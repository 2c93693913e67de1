//! Reading an `events.jsonl` back as a stream, for every reader (the end-of-turn pass,
//! replay, `--continue`, `massgen logs`): one line at a time, each at most
//! [`MAX_EVENT_LINE`] bytes, from a regular file only — a FIFO or a device in its place is
//! refused at once, and a log is never held whole.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::bounded_file::{self, MIB};
use crate::protocol::Event;

/// The longest line read back. The largest events hold one answer or one tool output, which
/// the per-call caps keep to a few MiB (32 MiB at their ceiling); JSON escaping can double
/// that.
pub const MAX_EVENT_LINE: u64 = 64 * MIB;

pub struct EventLines {
    reader: BufReader<File>,
    path: PathBuf,
    line: Vec<u8>,
    line_number: usize,
    bytes_read: u64,
}

impl EventLines {
    pub fn open(path: &Path) -> io::Result<Self> {
        Ok(Self {
            reader: BufReader::new(bounded_file::open_regular(path)?),
            path: path.to_path_buf(),
            line: Vec::new(),
            line_number: 0,
            bytes_read: 0,
        })
    }

    /// Bytes read so far, newlines included.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next line without its newline, `None` at the end; a line longer than
    /// [`MAX_EVENT_LINE`] is an error naming the file and line.
    pub fn next_line(&mut self) -> io::Result<Option<&[u8]>> {
        self.line.clear();
        let read = (&mut self.reader)
            .take(MAX_EVENT_LINE + 1)
            .read_until(b'\n', &mut self.line)?;
        if read == 0 {
            return Ok(None);
        }
        self.line_number += 1;
        self.bytes_read += read as u64;
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        } else if read as u64 > MAX_EVENT_LINE {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "{}:{}: a line longer than {} MiB, more than any event massgen writes",
                    self.path.display(),
                    self.line_number,
                    MAX_EVENT_LINE / MIB
                ),
            ));
        }
        Ok(Some(&self.line))
    }

    /// The next event, `None` at the end. Blank lines are skipped, and so is a torn last
    /// line (a run killed while writing it); any other line that is not an event is an error.
    pub fn next_event(&mut self) -> io::Result<Option<Event>> {
        loop {
            let Some(line) = self.next_line()? else {
                return Ok(None);
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            match serde_json::from_slice(line) {
                Ok(event) => return Ok(Some(event)),
                Err(error) => {
                    if self.reader.fill_buf()?.is_empty() {
                        return Ok(None);
                    }
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{}:{}: {error}", self.path.display(), self.line_number),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::protocol::EventMsg;

    fn line(seq: u64) -> String {
        let event = Event {
            seq,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: None,
            msg: EventMsg::Warning {
                message: format!("w{seq}"),
            },
        };
        serde_json::to_string(&event).unwrap() + "\n"
    }

    fn seqs(path: &Path) -> io::Result<Vec<u64>> {
        let mut lines = EventLines::open(path)?;
        let mut seqs = Vec::new();
        while let Some(event) = lines.next_event()? {
            seqs.push(event.seq);
        }
        Ok(seqs)
    }

    #[test]
    fn events_are_read_one_by_one_and_a_torn_last_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        std::fs::write(&path, format!("{}\n{}{{\"seq\":3,", line(1), line(2))).unwrap();
        assert_eq!(seqs(&path).unwrap(), [1, 2]);
        std::fs::write(&path, format!("{}garbage\n{}", line(1), line(2))).unwrap();
        let error = seqs(&path).unwrap_err();
        assert!(error.to_string().contains("events.jsonl:2"), "{error}");
    }

    #[test]
    fn a_line_over_the_bound_is_refused_without_reading_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let file = File::create(&path).unwrap();
        file.set_len(MAX_EVENT_LINE * 2).unwrap();
        let mut lines = EventLines::open(&path).unwrap();
        let error = lines.next_line().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert!(lines.line.len() as u64 <= MAX_EVENT_LINE + 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_in_place_of_the_log_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let error = seqs(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    }
}
