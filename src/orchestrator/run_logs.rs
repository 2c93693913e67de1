//! Where a run's files go: the log directory (`massgen_logs/log_<ts>/turn_N/attempt_1/`)
//! and the session store, both created with the first turn; and, when a turn ends, the
//! files derived from its event log.

use std::io;
use std::path::{Path, PathBuf};

use super::emitter::Emitter;
use crate::config::Config;
use crate::protocol::EventMsg;
use crate::session::{
    RunLogDir, SessionStore, TurnLog, derived, pretty_json, read_events, registry_path,
    write_atomic,
};

/// The run's log directory, created when the first turn starts.
pub struct Logs {
    massgen_dir: Option<PathBuf>,
    run_dir: Option<RunLogDir>,
    /// The session's store, created with the first turn's logs.
    session: Option<SessionStore>,
}

impl Logs {
    pub fn new(massgen_dir: Option<PathBuf>) -> Self {
        Self {
            massgen_dir,
            run_dir: None,
            session: None,
        }
    }

    /// Records turns in an earlier session instead of a new one.
    pub fn continue_session(&mut self, session: SessionStore) {
        self.session = Some(session.with_registry(registry_path()));
    }

    /// Creates the turn's directory and event log on the blocking pool (file-system
    /// metadata work can take milliseconds).
    pub async fn open_turn(&mut self, turn: u32, emitter: &mut Emitter) -> Option<TurnLog> {
        let massgen_dir = self.massgen_dir.clone()?;
        let run_dir = self.run_dir.clone();
        let session = self.session.clone();
        let root = massgen_dir.clone();
        let opened = tokio::task::spawn_blocking(move || -> io::Result<Opened> {
            let dir = match run_dir {
                Some(dir) => dir,
                None => RunLogDir::create(&root)?,
            };
            let session = match session {
                Some(session) => session,
                None => SessionStore::create(&root)?.with_registry(registry_path()),
            };
            let log = TurnLog::open(dir.attempt_dir(turn, 1))?;
            Ok((dir, session, log))
        })
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)));
        match opened {
            Ok((dir, session, log)) => {
                self.run_dir = Some(dir);
                self.session = Some(session);
                Some(log)
            }
            Err(error) => {
                emitter.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "logging is off for this turn: cannot create logs under {} ({error})",
                            massgen_dir.display()
                        ),
                    },
                );
                None
            }
        }
    }
}

/// A turn's opened log: the run's directory, the session store and the turn's event log.
type Opened = (RunLogDir, SessionStore, TurnLog);

impl Logs {
    /// Records in the session that the turn started, so a killed run still lists it.
    pub async fn begin_turn(&self, turn: u32, question: String, log_dir: Option<PathBuf>) {
        let Some(session) = self.session.clone() else {
            return;
        };
        let begun = tokio::task::spawn_blocking(move || {
            session.begin_turn(turn, &question, log_dir.as_deref())
        })
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)));
        if let Err(error) = begun {
            tracing::warn!(%error, turn, "the session store could not record the turn's start");
        }
    }

    /// Writes the files derived from the turn's event log and records the turn in the
    /// session store, on the blocking pool.
    pub async fn finish_turn(
        &self,
        attempt_dir: PathBuf,
        turn: u32,
        config: &Config,
        question: &str,
    ) {
        let session = self.session.clone();
        let project_dir = self.massgen_dir.as_deref().and_then(Path::parent);
        let metadata = derived::execution_metadata(
            config,
            question,
            turn,
            session.as_ref().map(SessionStore::id),
            project_dir,
        );
        let written = tokio::task::spawn_blocking(move || -> io::Result<usize> {
            let events = read_events(&attempt_dir.join("events.jsonl"))?;
            let count = derived::write_derived(&attempt_dir, &events)?;
            write_atomic(
                &attempt_dir.join("execution_metadata.yaml"),
                &pretty_json(&metadata),
            )?;
            if let Some(session) = session {
                session.record_turn(turn, &events, Some(&attempt_dir))?;
            }
            Ok(count)
        })
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)));
        match written {
            Ok(count) => tracing::debug!(count, turn, "derived log files written"),
            Err(error) => tracing::warn!(%error, turn, "derived log files not written"),
        }
    }
}
