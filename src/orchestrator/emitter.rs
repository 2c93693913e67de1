//! Stamps events (sequence number, time, turn), takes configured secrets out of them,
//! appends them to the turn's event log, and sends them to the front end.

use super::event_queue::EventSender;
use super::redacting::EventRedaction;
use crate::protocol::{AgentId, Event, EventMsg};
use crate::redact::Redactor;
use crate::session::TurnLog;

pub struct Emitter {
    seq: u64,
    turn: u32,
    tx: EventSender,
    log: Option<TurnLog>,
    /// The turn's event log failed a write (a full disk): nothing more is appended, but the
    /// log is still handed back at the turn's end, so the turn is recorded as it ended.
    log_failed: bool,
    /// `None` when the run has no secrets to hide.
    redaction: Option<EventRedaction>,
}

impl Emitter {
    pub fn new(tx: EventSender) -> Self {
        Self {
            seq: 0,
            turn: 0,
            tx,
            log: None,
            log_failed: false,
            redaction: None,
        }
    }

    /// Every event from now on has `redactor`'s secrets replaced before anyone sees it.
    #[must_use]
    pub fn redacting(mut self, redactor: Redactor) -> Self {
        self.redaction = (!redactor.is_empty()).then(|| EventRedaction::new(redactor));
        self
    }

    /// Events from now on belong to `turn` and go to `log`.
    pub fn begin_turn(&mut self, turn: u32, log: Option<TurnLog>) {
        self.turn = turn;
        self.log = log;
        self.log_failed = false;
    }

    /// Back outside any turn; the turn's log is handed back to be closed.
    pub fn end_turn(&mut self) -> Option<TurnLog> {
        self.turn = 0;
        self.log.take()
    }

    /// Puts `log` in place of the turn's log (a new attempt's), handing back the old one.
    pub fn swap_log(&mut self, log: Option<TurnLog>) -> Option<TurnLog> {
        std::mem::replace(&mut self.log, log)
    }

    /// The front end keeps up: more may be pulled from the agents.
    pub fn has_room(&self) -> bool {
        self.tx.has_room()
    }

    /// Waits until the front end has taken enough of what was sent (see `event_queue`).
    pub async fn room(&self) {
        self.tx.room().await;
    }

    pub fn log(&self) -> Option<&TurnLog> {
        self.log.as_ref()
    }

    /// The turn's event log failed a write and the user was told: a later write failing in
    /// the same turn is the same story (a full disk), not news.
    pub fn log_failed(&self) -> bool {
        self.log_failed
    }

    pub fn emit(&mut self, agent: Option<&AgentId>, msg: EventMsg) {
        match self.redaction.as_mut() {
            None => self.stamp_and_send(agent, msg),
            Some(redaction) => {
                for msg in redaction.process(agent, msg) {
                    self.stamp_and_send(agent, msg);
                }
            }
        }
    }

    fn stamp_and_send(&mut self, agent: Option<&AgentId>, msg: EventMsg) {
        self.seq += 1;
        let event = Event {
            seq: self.seq,
            at: jiff::Timestamp::now(),
            turn: self.turn,
            agent: agent.cloned(),
            msg,
        };
        let writable = self.log.as_mut().filter(|_| !self.log_failed);
        let failure = writable.and_then(|log| {
            log.append(&event)
                .err()
                .map(|error| (log.dir().display().to_string(), error))
        });
        let turn_over = matches!(event.msg, EventMsg::TurnFinished { .. });
        super::milestones::trace(&event);
        let _ = self.tx.send(event);
        if let Some((path, error)) = failure {
            self.log_failed = true;
            tracing::error!(%path, %error, "event log write failed");
            // Nothing of a turn may follow its TurnFinished; the trace above must do.
            if turn_over {
                return;
            }
            self.emit(
                None,
                EventMsg::Warning {
                    message: format!(
                        "could not write the event log in {path} ({error}); this turn is no \
                         longer logged"
                    ),
                },
            );
        }
    }
}
