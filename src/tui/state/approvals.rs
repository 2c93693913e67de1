//! Tool calls waiting for the user's approval, oldest first, and every decision of the
//! session (`/approvals`): folded from `ApprovalEvent`s. A call the user answers here
//! leaves the queue at once; its `Decided` event still joins the decisions.

use jiff::Timestamp;

use crate::protocol::{ApprovalEvent, ApprovalRecord, ApprovalRequest};

/// A call waiting for an answer, and when it started waiting.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingApproval {
    pub request: ApprovalRequest,
    pub asked_at: Timestamp,
}

/// One decision about one call, and when it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct DecidedApproval {
    pub record: ApprovalRecord,
    pub at: Timestamp,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Approvals {
    /// The asks nobody has answered yet, in the order they came.
    pub pending: Vec<PendingApproval>,
    /// Every decision of the session, newest last (the ledger's lines).
    pub decided: Vec<DecidedApproval>,
    /// Asks answered here whose `Decided` has not come yet: a repeated `Asked` for one
    /// of them does not queue it again.
    answered: Vec<String>,
}

impl Approvals {
    pub(super) fn fold(&mut self, event: &ApprovalEvent, at: Timestamp) {
        match event {
            ApprovalEvent::Asked(request) => {
                let known = self.answered.contains(&request.request_id)
                    || self
                        .pending
                        .iter()
                        .any(|pending| pending.request.request_id == request.request_id);
                if !known {
                    self.pending.push(PendingApproval {
                        request: request.clone(),
                        asked_at: at,
                    });
                }
            }
            ApprovalEvent::Decided(record) => {
                if let Some(id) = &record.request_id {
                    self.pending
                        .retain(|pending| &pending.request.request_id != id);
                    self.answered.retain(|answered| answered != id);
                }
                self.decided.push(DecidedApproval {
                    record: record.clone(),
                    at,
                });
            }
        }
    }

    /// The user answered `request_id` here: it leaves the queue now, before the runtime
    /// reports the decision.
    pub fn answered(&mut self, request_id: &str) {
        self.pending
            .retain(|pending| pending.request.request_id != request_id);
        self.answered.push(request_id.to_string());
    }

    /// The oldest call waiting, the one the approval view shows.
    pub fn first(&self) -> Option<&PendingApproval> {
        self.pending.first()
    }

    /// The turn is over: nothing waits any more.
    pub(super) fn turn_ended(&mut self) {
        self.pending.clear();
        self.answered.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::test_approvals::{command_request, decided};

    fn at(secs: i64) -> Timestamp {
        Timestamp::from_second(secs).unwrap()
    }

    #[test]
    fn asks_queue_in_arrival_order_and_a_decision_closes_its_ask() {
        let mut approvals = Approvals::default();
        approvals.fold(&ApprovalEvent::Asked(command_request("r1", "ls")), at(1));
        approvals.fold(&ApprovalEvent::Asked(command_request("r2", "pwd")), at(2));
        approvals.fold(&ApprovalEvent::Asked(command_request("r1", "ls")), at(3));
        let ids: Vec<&str> = approvals
            .pending
            .iter()
            .map(|pending| pending.request.request_id.as_str())
            .collect();
        assert_eq!(ids, ["r1", "r2"], "a repeated ask is not queued twice");
        assert_eq!(approvals.first().map(|first| first.asked_at), Some(at(1)));
        approvals.fold(&ApprovalEvent::Decided(decided(Some("r1"))), at(4));
        assert_eq!(approvals.pending.len(), 1);
        assert_eq!(approvals.first().unwrap().request.request_id, "r2");
        assert_eq!(approvals.decided.len(), 1);
        assert_eq!(approvals.decided[0].at, at(4));
    }

    #[test]
    fn an_answered_ask_leaves_the_queue_and_its_decision_is_still_recorded() {
        let mut approvals = Approvals::default();
        approvals.fold(&ApprovalEvent::Asked(command_request("r1", "ls")), at(1));
        approvals.answered("r1");
        assert!(approvals.pending.is_empty());
        approvals.fold(&ApprovalEvent::Asked(command_request("r1", "ls")), at(2));
        assert!(approvals.pending.is_empty(), "answered: not asked again");
        approvals.fold(&ApprovalEvent::Decided(decided(Some("r1"))), at(3));
        assert!(approvals.pending.is_empty());
        assert_eq!(approvals.decided.len(), 1);
    }

    #[test]
    fn decisions_nobody_was_asked_about_are_recorded_and_a_turn_end_empties_the_queue() {
        let mut approvals = Approvals::default();
        approvals.fold(&ApprovalEvent::Decided(decided(None)), at(1));
        approvals.fold(&ApprovalEvent::Asked(command_request("r1", "ls")), at(2));
        assert_eq!(approvals.decided.len(), 1);
        approvals.turn_ended();
        assert!(approvals.pending.is_empty());
        assert_eq!(approvals.decided.len(), 1, "the session's decisions stay");
    }
}
