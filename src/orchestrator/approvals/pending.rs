//! The run's calls waiting for a person's answer in the TUI: the answer an
//! `Op::AnswerApproval` names reaches the call that waits for it, and a call that stops
//! waiting (answered, timed out, cancelled with its turn) leaves no entry behind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;

use crate::protocol::ApprovalAnswer;

/// Requests waiting for an answer, by `request_id`.
#[derive(Debug, Default)]
pub struct PendingApprovals {
    waiting: Mutex<HashMap<String, oneshot::Sender<ApprovalAnswer>>>,
}

impl PendingApprovals {
    /// Starts waiting for the answer to `request_id`.
    pub fn register(self: &Arc<Self>, request_id: &str) -> Waiting {
        let (sender, answer) = oneshot::channel();
        self.lock().insert(request_id.to_string(), sender);
        Waiting {
            pending: Arc::clone(self),
            request_id: request_id.to_string(),
            answer,
        }
    }

    /// Hands `answer` to the call waiting for `request_id`; `false` when none is.
    pub fn answer(&self, request_id: &str, answer: ApprovalAnswer) -> bool {
        self.lock()
            .remove(request_id)
            .is_some_and(|waiting| waiting.send(answer).is_ok())
    }

    /// How many calls wait now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, oneshot::Sender<ApprovalAnswer>>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One call's wait; dropping it (the call was cancelled) takes its entry away.
pub struct Waiting {
    pending: Arc<PendingApprovals>,
    request_id: String,
    answer: oneshot::Receiver<ApprovalAnswer>,
}

impl Waiting {
    /// The answer; `None` when the registry was dropped before anyone answered.
    pub async fn answer(&mut self) -> Option<ApprovalAnswer> {
        (&mut self.answer).await.ok()
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.pending.lock().remove(&self.request_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::GrantScope;

    #[tokio::test]
    async fn an_answer_reaches_its_call_and_an_unknown_id_reaches_nobody() {
        let pending = Arc::new(PendingApprovals::default());
        let mut waiting = pending.register("r-1");
        let approve = ApprovalAnswer::Approve {
            scope: GrantScope::Session,
        };
        assert!(!pending.answer("r-2", approve.clone()));
        assert!(pending.answer("r-1", approve.clone()));
        assert_eq!(waiting.answer().await, Some(approve));
        assert!(pending.is_empty());
    }

    #[test]
    fn a_call_that_stops_waiting_leaves_no_entry() {
        let pending = Arc::new(PendingApprovals::default());
        let waiting = pending.register("r-1");
        assert_eq!(pending.len(), 1);
        drop(waiting);
        assert!(pending.is_empty());
        assert!(!pending.answer("r-1", ApprovalAnswer::Deny { message: None }));
    }
}
