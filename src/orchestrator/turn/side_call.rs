//! A one-off model call outside the agents' rounds (planning mode's analysis, personas,
//! criteria, the bootstrap critic, the decomposer), awaited while the driver keeps serving
//! the agents' messages, the user's ops and the turn's deadline.

use std::future::Future;

use tokio::sync::mpsc;

use super::{Driver, Phase};
use crate::protocol::Op;

/// How a side call ended.
pub(super) enum SideCall<T> {
    Replied(T),
    /// The turn's deadline passed first; the turn's own timeout follows at once.
    OutOfTime,
    /// The user cancelled the turn meanwhile.
    TurnEnded,
}

impl Driver<'_> {
    /// Awaits `call`. Messages the call's model link sent before its reply (its usage)
    /// are handled before this returns, so they come before whatever follows the reply.
    pub(super) async fn side_call<T>(
        &mut self,
        call: impl Future<Output = T>,
        ops: &mut mpsc::Receiver<Op>,
    ) -> SideCall<T> {
        tokio::pin!(call);
        let deadline = self.deadline;
        loop {
            tokio::select! {
                reply = &mut call => {
                    while let Ok(msg) = self.rx.try_recv() {
                        self.handle(msg);
                    }
                    return SideCall::Replied(reply);
                }
                () = tokio::time::sleep_until(deadline) => return SideCall::OutOfTime,
                Some(msg) = self.rx.recv() => self.handle(msg),
                op = ops.recv() => {
                    self.handle_op(op);
                    if matches!(self.phase, Phase::Done) {
                        return SideCall::TurnEnded;
                    }
                }
            }
        }
    }
}
