//! Requests sent over a stream and not yet answered: one waiter per request id, handed its
//! response by the task reading the stream. A waiter dropped before its answer (an abandoned
//! call) leaves nothing behind; a late answer for it is discarded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use tokio::sync::oneshot;

use crate::mcp::jsonrpc::RpcError;

pub type Outcome = Result<Value, RpcError>;

#[derive(Default)]
pub struct Waiters {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    waiting: HashMap<u64, oneshot::Sender<Outcome>>,
    /// The stream ended: no more answers will come.
    closed: bool,
}

/// One request's place in line; dropping it gives the place up.
pub struct Waiter {
    pub id: u64,
    waiters: Arc<Waiters>,
    answer: Option<oneshot::Receiver<Outcome>>,
}

impl Waiters {
    /// A fresh id and its waiter; `None` once the stream has ended.
    pub fn register(self: &Arc<Self>) -> Option<Waiter> {
        let (sender, answer) = oneshot::channel();
        let mut state = self.lock();
        if state.closed {
            return None;
        }
        state.next_id += 1;
        let id = state.next_id;
        state.waiting.insert(id, sender);
        Some(Waiter {
            id,
            waiters: Arc::clone(self),
            answer: Some(answer),
        })
    }

    /// Hands the response to request `id` to its waiter, if it still waits.
    pub fn deliver(&self, id: u64, outcome: Outcome) {
        let sender = self.lock().waiting.remove(&id);
        match sender {
            Some(sender) => {
                let _ = sender.send(outcome);
            }
            None => tracing::debug!(target: "massgen::mcp", id, "an answer nobody waits for"),
        }
    }

    /// The stream ended: every waiter learns it, and no new one is taken.
    pub fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        state.waiting.clear();
    }

    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Waiter {
    /// The response, or `None` when the stream ended first.
    pub async fn answer(mut self) -> Option<Outcome> {
        let answer = self.answer.take()?;
        answer.await.ok()
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        self.waiters.lock().waiting.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test]
    async fn answers_reach_the_waiter_with_their_id() {
        let waiters = Arc::new(Waiters::default());
        let first = waiters.register().unwrap();
        let second = waiters.register().unwrap();
        assert_ne!(first.id, second.id);
        waiters.deliver(second.id, Ok(json!(2)));
        waiters.deliver(first.id, Ok(json!(1)));
        assert_eq!(second.answer().await, Some(Ok(json!(2))));
        assert_eq!(first.answer().await, Some(Ok(json!(1))));
    }

    #[tokio::test]
    async fn a_dropped_waiter_leaves_the_others_working() {
        let waiters = Arc::new(Waiters::default());
        let abandoned = waiters.register().unwrap();
        let id = abandoned.id;
        drop(abandoned);
        assert!(waiters.lock().waiting.is_empty());
        waiters.deliver(id, Ok(json!("late")));
        let next = waiters.register().unwrap();
        waiters.deliver(next.id, Ok(json!("on time")));
        assert_eq!(next.answer().await, Some(Ok(json!("on time"))));
    }

    #[tokio::test]
    async fn closing_ends_every_wait_and_refuses_new_ones() {
        let waiters = Arc::new(Waiters::default());
        let waiting = waiters.register().unwrap();
        waiters.close();
        assert_eq!(waiting.answer().await, None);
        assert!(waiters.register().is_none());
        assert!(waiters.is_closed());
    }
}
