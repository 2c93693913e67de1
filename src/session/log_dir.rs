//! The log tree of one run: `.massgen/massgen_logs/log_<ts>/turn_N/attempt_M/`.

use std::io;
use std::path::{Path, PathBuf};

use super::approval_ledger::ApprovalLedger;
use super::event_log::EventLog;
use super::live_status::{LiveStatus, STATUS_PERIOD};
use crate::protocol::{AgentId, ApprovalEvent, Event, EventMsg};

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

/// One run's log directory, `<massgen_dir>/massgen_logs/log_<ts>/`: `massgen.log` and a
/// `turn_N/attempt_M/` per turn.
#[derive(Clone, Debug)]
pub struct RunLogDir {
    massgen_dir: PathBuf,
    root: PathBuf,
}

impl RunLogDir {
    /// Creates a fresh directory named after the local time; never reuses one.
    pub fn create(massgen_dir: &Path) -> io::Result<Self> {
        let logs = massgen_dir.join("massgen_logs");
        std::fs::create_dir_all(&logs)?;
        let stamp = crate::local_time::now()
            .strftime("%Y%m%d_%H%M%S_%6f")
            .to_string();
        let root = create_fresh_dir(&logs, &format!("log_{stamp}"))?;
        Ok(Self {
            massgen_dir: massgen_dir.to_path_buf(),
            root,
        })
    }

    /// The project's `.massgen` directory the run logs under.
    pub fn massgen_dir(&self) -> &Path {
        &self.massgen_dir
    }

    /// `log_<ts>/` itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn attempt_dir(&self, turn: u32, attempt: u32) -> PathBuf {
        self.root
            .join(format!("turn_{turn}"))
            .join(format!("attempt_{attempt}"))
    }
}

/// The directories of the attempts before `attempt_dir` (`…/turn_N/attempt_M`) beside it,
/// `attempt_1` first: a turn the winner sent back goes on in a new attempt directory.
pub fn earlier_attempt_dirs(attempt_dir: &Path) -> Vec<PathBuf> {
    let number = attempt_dir
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.strip_prefix("attempt_"))
        .and_then(|number| number.parse::<u32>().ok())
        .unwrap_or(1);
    (1..number)
        .map(|earlier| attempt_dir.with_file_name(format!("attempt_{earlier}")))
        .collect()
}

/// The files of one turn attempt.
pub struct TurnLog {
    dir: PathBuf,
    events: EventLog,
    status: Option<LiveStatus>,
    approvals: ApprovalLedger,
}

impl TurnLog {
    pub fn open(dir: PathBuf) -> io::Result<Self> {
        std::fs::create_dir_all(&dir)?;
        let events = EventLog::open(&dir.join("events.jsonl"))?;
        Ok(Self {
            approvals: ApprovalLedger::new(&dir),
            dir,
            events,
            status: None,
        })
    }

    /// From now on `status.json` is rewritten every 2 s from the events appended.
    /// Must be called within a tokio runtime.
    pub fn keep_status_current(&mut self) {
        self.status = Some(LiveStatus::start(
            self.dir.join("status.json"),
            STATUS_PERIOD,
        ));
    }

    /// Closes the log, waiting for a `status.json` write in progress; returns the
    /// attempt directory.
    pub async fn close(self) -> PathBuf {
        if let Some(status) = self.status {
            status.stop().await;
        }
        self.dir
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn append(&mut self, event: &Event) -> io::Result<()> {
        self.events.append(event)?;
        if let EventMsg::Approval(ApprovalEvent::Decided(record)) = &event.msg
            && let Err(error) = self.approvals.record(event.at, record)
        {
            // The ledger never stops the run; the decision is in events.jsonl anyway.
            tracing::warn!(dir = %self.dir.display(), "cannot write approvals.jsonl: {error}");
        }
        if let Some(status) = &self.status {
            status.apply(event);
        }
        Ok(())
    }

    /// Where the winner's final answer goes: `final/<winner>/answer.txt`.
    pub fn final_answer_path(&self, winner: &AgentId) -> PathBuf {
        self.dir
            .join("final")
            .join(winner.as_str())
            .join("answer.txt")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Action, ApprovalRecord, Decider, GrantScope, Risk, Verdict};
    use crate::session::approval_ledger::LEDGER_FILE;

    fn event(msg: EventMsg) -> Event {
        Event {
            seq: 0,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: Some(AgentId::new("a")),
            msg,
        }
    }

    #[test]
    fn decided_approvals_go_to_the_ledger_beside_the_events() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("log_x").join("turn_1").join("attempt_1");
        let mut log = TurnLog::open(dir.clone()).unwrap();
        log.append(&event(EventMsg::Warning {
            message: "not a decision".into(),
        }))
        .unwrap();
        assert!(!dir.join(LEDGER_FILE).exists());
        let record = ApprovalRecord {
            agent: AgentId::new("a"),
            call_id: "c1".into(),
            tool: "execute_command".into(),
            action: Action::Command,
            target: "ls".into(),
            pattern: "command(ls)".into(),
            risk: Risk::Low,
            verdict: Verdict::Allow,
            decider: Decider::Rule,
            scope: GrantScope::Once,
            rule: None,
            reason: "allowed".into(),
            asked: false,
            request_id: None,
            message: None,
            waited_ms: None,
            preview: "$ ls".into(),
            audit: true,
        };
        log.append(&event(EventMsg::Approval(ApprovalEvent::Decided(record))))
            .unwrap();
        let ledger = std::fs::read_to_string(dir.join(LEDGER_FILE)).unwrap();
        assert_eq!(ledger.lines().count(), 1);
        assert!(ledger.contains("\"run_id\":\"log_x\""), "{ledger}");
    }
}
