//! The queue of events from the orchestrator to its front end, held to a budget: what the
//! front end has not taken yet is counted, and the turn driver pulls no more from its
//! agents while the queue is over [`BACKLOG_BYTES`]. So a front end slower than a model
//! streaming at socket speed slows the agents' reads (TCP pushes back on the provider)
//! instead of queueing without end.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;
use tokio::sync::mpsc::{self, error::TryRecvError};

use crate::protocol::{Event, EventMsg};

/// How much the front end may have queued before the driver waits (about the memory of
/// the queued events: each event's size plus its streamed text).
pub const BACKLOG_BYTES: usize = 4 * 1024 * 1024;

#[derive(Default)]
struct Backlog {
    bytes: AtomicUsize,
    drained: Notify,
}

impl Backlog {
    fn has_room(&self) -> bool {
        self.bytes.load(Ordering::Acquire) < BACKLOG_BYTES
    }

    fn taken(&self, event: &Event) {
        let weight = cost(event);
        if weight == 0 {
            return;
        }
        let before = self.bytes.fetch_sub(weight, Ordering::AcqRel);
        if before.saturating_sub(weight) < BACKLOG_BYTES {
            self.drained.notify_waiters();
        }
    }
}

/// What an event in the queue weighs: a streamed delta, its size and its text; any other
/// event nothing (they are few, and a front end that reads nothing until the turn ends
/// must not stall it by them).
pub fn cost(event: &Event) -> usize {
    streamed_text(&event.msg).map_or(0, |text| size_of::<Event>() + text.len())
}

/// The text of a streamed delta.
pub fn streamed_text(msg: &EventMsg) -> Option<&str> {
    match msg {
        EventMsg::TextDelta { text }
        | EventMsg::ReasoningDelta { text }
        | EventMsg::FinalPresentationDelta { text } => Some(text),
        _ => None,
    }
}

pub fn event_channel() -> (EventSender, EventReceiver) {
    let (tx, rx) = mpsc::unbounded_channel();
    let backlog = Arc::new(Backlog::default());
    (
        EventSender {
            tx,
            backlog: Arc::clone(&backlog),
        },
        EventReceiver { rx, backlog },
    )
}

/// The orchestrator's end. Sending never waits; [`room`](Self::room) is where to wait.
#[derive(Clone)]
pub struct EventSender {
    tx: mpsc::UnboundedSender<Event>,
    backlog: Arc<Backlog>,
}

impl EventSender {
    /// False when the front end is gone.
    pub fn send(&self, event: Event) -> bool {
        let weight = cost(&event);
        self.backlog.bytes.fetch_add(weight, Ordering::AcqRel);
        let sent = self.tx.send(event).is_ok();
        if !sent {
            self.backlog.bytes.fetch_sub(weight, Ordering::AcqRel);
        }
        sent
    }

    /// The front end has taken enough that more may be produced.
    pub fn has_room(&self) -> bool {
        self.backlog.has_room() || self.tx.is_closed()
    }

    /// Waits until [`has_room`](Self::has_room).
    pub async fn room(&self) {
        loop {
            let drained = self.backlog.drained.notified();
            tokio::pin!(drained);
            drained.as_mut().enable();
            if self.has_room() {
                return;
            }
            tokio::select! {
                () = drained => {}
                () = self.tx.closed() => return,
            }
        }
    }
}

/// The front end's end, taken from as from a tokio `mpsc` receiver.
pub struct EventReceiver {
    rx: mpsc::UnboundedReceiver<Event>,
    backlog: Arc<Backlog>,
}

impl EventReceiver {
    pub async fn recv(&mut self) -> Option<Event> {
        let event = self.rx.recv().await?;
        self.backlog.taken(&event);
        Some(event)
    }

    pub fn try_recv(&mut self) -> Result<Event, TryRecvError> {
        let event = self.rx.try_recv()?;
        self.backlog.taken(&event);
        Ok(event)
    }

    pub async fn recv_many(&mut self, buffer: &mut Vec<Event>, limit: usize) -> usize {
        let start = buffer.len();
        let received = self.rx.recv_many(buffer, limit).await;
        for event in &buffer[start..] {
            self.backlog.taken(event);
        }
        received
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(bytes: usize) -> Event {
        Event {
            seq: 1,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: None,
            msg: EventMsg::TextDelta {
                text: "x".repeat(bytes),
            },
        }
    }

    #[tokio::test]
    async fn the_sender_waits_for_room_until_the_front_end_takes_events() {
        let (tx, mut rx) = event_channel();
        assert!(tx.send(delta(BACKLOG_BYTES)));
        assert!(!tx.has_room());
        let waiting = tokio::spawn({
            let tx = tx.clone();
            async move { tx.room().await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "no room while the queue is full");
        assert!(rx.recv().await.is_some());
        waiting.await.unwrap();
        assert!(tx.has_room());
    }

    #[tokio::test]
    async fn a_gone_front_end_never_blocks_the_sender() {
        let (tx, rx) = event_channel();
        assert!(tx.send(delta(BACKLOG_BYTES)));
        drop(rx);
        tx.room().await;
        assert!(tx.has_room());
    }
}
