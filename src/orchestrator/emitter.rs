//! Stamps events (sequence number, time, turn), appends them to the turn's event log,
//! and sends them to the front end.

use tokio::sync::mpsc;

use crate::protocol::{AgentId, Event, EventMsg};
use crate::session::TurnLog;

pub struct Emitter {
    seq: u64,
    turn: u32,
    tx: mpsc::UnboundedSender<Event>,
    log: Option<TurnLog>,
}

impl Emitter {
    pub fn new(tx: mpsc::UnboundedSender<Event>) -> Self {
        Self {
            seq: 0,
            turn: 0,
            tx,
            log: None,
        }
    }

    /// Events from now on belong to `turn` and go to `log`.
    pub fn begin_turn(&mut self, turn: u32, log: Option<TurnLog>) {
        self.turn = turn;
        self.log = log;
    }

    /// Back outside any turn; the turn's log is handed back to be closed.
    pub fn end_turn(&mut self) -> Option<TurnLog> {
        self.turn = 0;
        self.log.take()
    }

    pub fn log(&self) -> Option<&TurnLog> {
        self.log.as_ref()
    }

    pub fn emit(&mut self, agent: Option<&AgentId>, msg: EventMsg) {
        self.seq += 1;
        let event = Event {
            seq: self.seq,
            at: jiff::Timestamp::now(),
            turn: self.turn,
            agent: agent.cloned(),
            msg,
        };
        let failure = self.log.as_mut().and_then(|log| {
            log.append(&event)
                .err()
                .map(|error| (log.dir().display().to_string(), error))
        });
        let turn_over = matches!(event.msg, EventMsg::TurnFinished { .. });
        super::milestones::trace(&event);
        let _ = self.tx.send(event);
        if let Some((path, error)) = failure {
            self.log = None;
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
