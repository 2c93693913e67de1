//! The server's open connections, at most a cap of them. A connection arriving at the cap
//! closes the one idle longest (no request in progress: waiting for a request's headers,
//! half-sent or between requests) to make room, so a flood of idle or half-sent
//! connections cannot lock clients out; when every connection is busy, it is closed at once.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, Bytes, HttpBody};
use hyper::body::{Frame, SizeHint};
use tokio_util::sync::CancellationToken;

pub struct Connections {
    cap: usize,
    started: Instant,
    open: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    slots: HashMap<u64, Arc<Slot>>,
}

struct Slot {
    requests_in_progress: AtomicUsize,
    /// Milliseconds since the server started at which the last request ended (or the
    /// connection opened).
    idle_since: AtomicU64,
    close: CancellationToken,
}

impl Connections {
    pub fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            cap: cap.max(1),
            started: Instant::now(),
            open: Mutex::new(Table::default()),
        })
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    fn now(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Makes room for and registers a new connection; `None` when every open connection
    /// has a request in progress (the new one is then to be closed).
    pub fn admit(self: &Arc<Self>) -> Option<Admitted> {
        let mut table = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if table.slots.len() >= self.cap && !evict_idlest(&mut table) {
            return None;
        }
        let slot = Arc::new(Slot {
            requests_in_progress: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.now()),
            close: CancellationToken::new(),
        });
        let id = table.next_id;
        table.next_id += 1;
        table.slots.insert(id, Arc::clone(&slot));
        Some(Admitted {
            connections: Arc::clone(self),
            id,
            slot,
        })
    }

    /// Closes the connection idle longest, to free its file descriptor; false when none is.
    pub fn evict_idlest(&self) -> bool {
        evict_idlest(&mut self.open.lock().unwrap_or_else(PoisonError::into_inner))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .slots
            .len()
    }
}

fn evict_idlest(table: &mut Table) -> bool {
    let idlest = table
        .slots
        .iter()
        .filter(|(_, slot)| slot.requests_in_progress.load(Ordering::SeqCst) == 0)
        .min_by_key(|(id, slot)| (slot.idle_since.load(Ordering::SeqCst), **id))
        .map(|(id, _)| *id);
    let Some(id) = idlest else { return false };
    if let Some(slot) = table.slots.remove(&id) {
        slot.close.cancel();
    }
    true
}

/// One admitted connection; leaves the table when dropped.
pub struct Admitted {
    connections: Arc<Connections>,
    id: u64,
    slot: Arc<Slot>,
}

impl Admitted {
    /// Completes when the connection was chosen to make room: it is to be closed.
    pub async fn evicted(&self) {
        self.slot.close.cancelled().await;
    }

    /// Marks a request in progress until the returned guard (held by its response body)
    /// is dropped.
    pub fn request_started(&self) -> InProgress {
        self.slot
            .requests_in_progress
            .fetch_add(1, Ordering::SeqCst);
        InProgress {
            connections: Arc::clone(&self.connections),
            slot: Arc::clone(&self.slot),
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .slots
            .remove(&self.id);
    }
}

pub struct InProgress {
    connections: Arc<Connections>,
    slot: Arc<Slot>,
}

impl Drop for InProgress {
    fn drop(&mut self) {
        self.slot
            .idle_since
            .store(self.connections.now(), Ordering::SeqCst);
        self.slot
            .requests_in_progress
            .fetch_sub(1, Ordering::SeqCst);
    }
}

/// A response body that keeps its request in progress until it is sent or dropped.
pub struct TrackedBody {
    inner: Body,
    _in_progress: InProgress,
}

impl TrackedBody {
    pub fn new(inner: Body, in_progress: InProgress) -> Self {
        Self {
            inner,
            _in_progress: in_progress,
        }
    }
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_connection_idle_longest_makes_room() {
        let connections = Connections::new(2);
        let first = connections.admit().unwrap();
        let second = connections.admit().unwrap();
        let _busy = second.request_started();
        let third = connections.admit().unwrap();
        assert!(first.slot.close.is_cancelled(), "the idle one was closed");
        assert!(!second.slot.close.is_cancelled(), "the busy one was not");
        assert_eq!(connections.len(), 2);
        let _also_busy = third.request_started();
        assert!(
            connections.admit().is_none(),
            "all busy: the newcomer is refused"
        );
        drop(first);
        assert_eq!(connections.len(), 2);
    }

    #[test]
    fn a_finished_request_makes_its_connection_idle_again() {
        let connections = Connections::new(1);
        let only = connections.admit().unwrap();
        drop(only.request_started());
        assert!(connections.admit().is_some());
        assert!(only.slot.close.is_cancelled());
    }
}
