//! The log tree of one run: `.massgen/massgen_logs/log_<ts>/turn_N/attempt_M/`.

use std::io;
use std::path::{Path, PathBuf};

use super::event_log::EventLog;
use crate::protocol::{AgentId, Event};

/// `log_<YYYYMMDD_HHMMSS_ffffff>` under `<massgen_dir>/massgen_logs/`, one per run.
/// Creates `<parent>/<name>`, or `<name>_1`, `<name>_2`… when it exists; never reuses one.
pub fn create_fresh_dir(parent: &Path, name: &str) -> io::Result<PathBuf> {
    for attempt in 0u32..1000 {
        let dir = if attempt == 0 {
            parent.join(name)
        } else {
            parent.join(format!("{name}_{attempt}"))
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free directory name like {name} in {}", parent.display()),
    ))
}

#[derive(Clone, Debug)]
pub struct RunLogDir {
    root: PathBuf,
}

impl RunLogDir {
    /// Creates a fresh directory named after the local time; never reuses one.
    pub fn create(massgen_dir: &Path) -> io::Result<Self> {
        let logs = massgen_dir.join("massgen_logs");
        std::fs::create_dir_all(&logs)?;
        let stamp = jiff::Zoned::now().strftime("%Y%m%d_%H%M%S_%6f").to_string();
        let root = create_fresh_dir(&logs, &format!("log_{stamp}"))?;
        Ok(Self { root })
    }

    pub fn attempt_dir(&self, turn: u32, attempt: u32) -> PathBuf {
        self.root
            .join(format!("turn_{turn}"))
            .join(format!("attempt_{attempt}"))
    }
}

/// The files of one turn attempt.
pub struct TurnLog {
    dir: PathBuf,
    events: EventLog,
}

impl TurnLog {
    pub fn open(dir: PathBuf) -> io::Result<Self> {
        std::fs::create_dir_all(&dir)?;
        let events = EventLog::open(&dir.join("events.jsonl"))?;
        Ok(Self { dir, events })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn append(&mut self, event: &Event) -> io::Result<()> {
        self.events.append(event)
    }

    /// Where the winner's final answer goes: `final/<winner>/answer.txt`.
    pub fn final_answer_path(&self, winner: &AgentId) -> PathBuf {
        self.dir
            .join("final")
            .join(winner.as_str())
            .join("answer.txt")
    }
}
