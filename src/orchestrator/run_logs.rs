//! Where a run's files go: the log directory (`massgen_logs/log_<ts>/turn_N/attempt_1/`,
//! created at startup by the front end) and the session store (created with the first
//! turn); and, when a turn ends, the files derived from its event log.

use std::io;
use std::path::PathBuf;

use super::emitter::Emitter;
use crate::config::Config;
use crate::protocol::EventMsg;
use crate::redact::Redactor;
use crate::session::{
    RunLogDir, SessionStore, TurnEnding, TurnLog, derived, earlier_attempt_dirs, pretty_json,
    write_atomic,
};

/// The run's log directory and session store.
pub struct Logs {
    /// `None` when logging is off.
    run_dir: Option<RunLogDir>,
    /// The session's store, created with the first turn's logs.
    session: Option<SessionStore>,
    /// The registry of sessions (`~/.massgen/sessions.json`) to keep up to date, if any.
    registry: Option<PathBuf>,
    /// The run's secrets, kept out of the question and the metadata written here (events
    /// are redacted before they are logged).
    redactor: Redactor,
}

impl Logs {
    pub fn new(run_dir: Option<RunLogDir>, registry: Option<PathBuf>, redactor: Redactor) -> Self {
        Self {
            run_dir,
            session: None,
            registry,
            redactor,
        }
    }

    /// The run's log directory name (`log_<ts>`), MassGen's session id for plans.
    pub fn run_name(&self) -> Option<String> {
        let root = self.run_dir.as_ref()?.root();
        Some(root.file_name()?.to_string_lossy().into_owned())
    }

    /// Where turn `turn`'s log will be (or is).
    pub fn turn_dir(&self, turn: u32) -> Option<PathBuf> {
        Some(self.run_dir.as_ref()?.attempt_dir(turn, 1))
    }

    /// Records turns in an earlier session instead of a new one.
    pub fn continue_session(&mut self, session: SessionStore) {
        self.session = Some(session.with_registry(self.registry.clone()));
    }

    /// Creates the turn's directory and event log on the blocking pool (file-system
    /// metadata work can take milliseconds); `status.json` is kept current from then on.
    pub async fn open_turn(&mut self, turn: u32, emitter: &mut Emitter) -> Option<TurnLog> {
        let run_dir = self.run_dir.clone()?;
        let session = self.session.clone();
        let attempt_dir = run_dir.attempt_dir(turn, 1);
        let massgen_dir = run_dir.massgen_dir().to_path_buf();
        let registry = self.registry.clone();
        let opened = tokio::task::spawn_blocking(move || -> io::Result<Opened> {
            let session = match session {
                Some(session) => session,
                None => SessionStore::create(&massgen_dir)?.with_registry(registry),
            };
            Ok((session, TurnLog::open(attempt_dir)?))
        })
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)));
        match opened {
            Ok((session, mut log)) => {
                self.session = Some(session);
                log.keep_status_current();
                Some(log)
            }
            Err(error) => {
                emitter.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "logging is off for this turn: cannot create logs under {} ({error})",
                            run_dir.massgen_dir().display()
                        ),
                    },
                );
                None
            }
        }
    }
}

impl Logs {
    /// Remembers a `/clear` in the session, so that continuing it later leaves the turns
    /// before `next_turn` out of the history. Before the first turn there is nothing to
    /// forget and no session yet.
    pub async fn history_cleared(&self, next_turn: u32, emitter: &mut Emitter) {
        let Some(session) = self.session.clone() else {
            return;
        };
        let written =
            tokio::task::spawn_blocking(move || session.record_history_cleared(next_turn))
                .await
                .unwrap_or_else(|error| Err(io::Error::other(error)));
        if let Err(error) = written {
            emitter.emit(
                None,
                EventMsg::Warning {
                    message: format!(
                        "the history is cleared for this run, but the session could not \
                         record it ({error}): --continue would bring the earlier turns back"
                    ),
                },
            );
        }
    }

    /// Rewrites the session's `turn_N/answer.txt` with the answer the user chose after the
    /// turn (`--continue` reads it back as the turn's answer).
    pub async fn override_answer(&self, turn: u32, content: String) -> Result<(), String> {
        let Some(session) = self.session.clone() else {
            return Ok(());
        };
        let content = self.redactor.redact(&content).into_owned();
        tokio::task::spawn_blocking(move || {
            let path = session
                .dir()
                .join(format!("turn_{turn}"))
                .join("answer.txt");
            write_atomic(&path, content.as_bytes()).map_err(|error| {
                format!(
                    "could not save the chosen answer in {} ({error})",
                    path.display()
                )
            })
        })
        .await
        .unwrap_or_else(|error| Err(format!("could not save the chosen answer: {error}")))
    }
}

/// A turn's opened log: the session store and the turn's event log.
type Opened = (SessionStore, TurnLog);

impl Logs {
    /// Records in the session that the turn started, so a killed run still lists it.
    /// Closes `log`, a finished turn's log that got one more event (an override), and
    /// writes the files derived from it again: the log's coordination files and the
    /// session's record of the turn.
    pub async fn rewrite_turn(&self, turn: u32, log: TurnLog) -> Result<(), String> {
        let attempt_dir = log.close().await;
        let session = self.session.clone();
        tokio::task::spawn_blocking(move || {
            let (events, written) = derived::write_derived(&attempt_dir);
            written.map_err(|error| {
                format!(
                    "could not rewrite the turn's log files in {} ({error})",
                    attempt_dir.display()
                )
            })?;
            let Some(session) = session else {
                return Ok(());
            };
            let turn_events = earlier_attempt_dirs(&attempt_dir)
                .iter()
                .flat_map(|dir| {
                    derived::read_compacted(&dir.join("events.jsonl")).unwrap_or_default()
                })
                .chain(events)
                .collect::<Vec<_>>();
            session
                .record_turn(turn, &turn_events, Some(&attempt_dir), None)
                .map_err(|error| {
                    format!(
                        "could not save the chosen answer in session {} ({error})",
                        session.id()
                    )
                })
        })
        .await
        .unwrap_or_else(|error| Err(format!("could not save the chosen answer: {error}")))
    }

    pub async fn begin_turn(&self, turn: u32, question: String, log_dir: Option<PathBuf>) {
        let Some(session) = self.session.clone() else {
            return;
        };
        let question = self.redactor.redact(&question).into_owned();
        let begun = tokio::task::spawn_blocking(move || {
            session.begin_turn(turn, &question, log_dir.as_deref())
        })
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)));
        if let Err(error) = begun {
            tracing::warn!(%error, turn, "the session store could not record the turn's start");
        }
    }

    /// Closes the turn's log, then writes the files derived from it and records the turn
    /// in the session store, on the blocking pool. Each step is tried even when one before
    /// it failed (a full disk), and the turn is recorded as `ending` says it ended, not as
    /// a log cut short would suggest. The first failure is returned, to be named once.
    pub async fn finish_turn(
        &self,
        log: TurnLog,
        turn: u32,
        config: &Config,
        ending: TurnEnding,
    ) -> Result<(), String> {
        let attempt_dir = log.close().await;
        let session = self.session.clone();
        let project_dir = self
            .run_dir
            .as_ref()
            .and_then(|dir| dir.massgen_dir().parent());
        let metadata = derived::execution_metadata(
            config,
            &ending.task,
            turn,
            session.as_ref().map(SessionStore::id),
            project_dir,
        );
        let metadata = pretty_json(&metadata);
        let metadata = match std::str::from_utf8(&metadata) {
            Ok(text) => self.redactor.redact(text).into_owned().into_bytes(),
            Err(_) => metadata,
        };
        let mut ending = ending;
        ending.task = self.redactor.redact(&ending.task).into_owned();
        tokio::task::spawn_blocking(move || {
            let (events, written) = derived::write_derived(&attempt_dir);
            let derived = written
                .map(|count| tracing::debug!(count, turn, "derived log files written"))
                .map_err(|error| {
                    format!(
                        "the turn's log files in {} ({error})",
                        attempt_dir.display()
                    )
                });
            let metadata = write_atomic(&attempt_dir.join("execution_metadata.yaml"), &metadata)
                .map_err(|error| format!("execution_metadata.yaml ({error})"));
            // A turn the winner sent back has one log per attempt; the session keeps them all.
            let turn_events = earlier_attempt_dirs(&attempt_dir)
                .iter()
                .flat_map(|dir| {
                    derived::read_compacted(&dir.join("events.jsonl")).unwrap_or_default()
                })
                .chain(events)
                .collect::<Vec<_>>();
            let recorded = session.map_or(Ok(()), |session| {
                session
                    .record_turn(turn, &turn_events, Some(&attempt_dir), Some(&ending))
                    .map_err(|error| format!("turn {turn} in session {} ({error})", session.id()))
            });
            let failures: Vec<String> = [recorded, derived, metadata]
                .into_iter()
                .filter_map(Result::err)
                .collect();
            let Some(first) = failures.first() else {
                return Ok(());
            };
            tracing::warn!(turn, failures = %failures.join("; "), "turn not fully saved");
            Err(match failures.len() {
                1 => format!("could not save {first}"),
                more => format!(
                    "could not save {first}, nor {}",
                    crate::text::plural(more - 1, "other file")
                ),
            })
        })
        .await
        .unwrap_or_else(|error| Err(format!("could not save the turn: {error}")))
    }
}
