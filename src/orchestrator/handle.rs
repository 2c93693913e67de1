//! Helpers on the front end's side of a running orchestrator: submit a question and
//! collect its turn's events, or stop the runtime.

use super::runtime::OrchestratorHandle;
use crate::protocol::{Event, EventMsg, Op};

impl OrchestratorHandle {
    /// Submits `question` and returns every event up to and including `TurnFinished`.
    /// Returns what arrived so far if the runtime stops early.
    pub async fn run_turn(&mut self, question: &str) -> Vec<Event> {
        let submit = Op::Submit {
            text: question.to_string(),
            mode: crate::protocol::Mode::Normal,
            context_paths: Vec::new(),
            options: crate::protocol::TurnOptions::default(),
        };
        if self.ops.send(submit).await.is_err() {
            return Vec::new();
        }
        self.finish_turn().await
    }

    /// Every event up to and including the running turn's `TurnFinished`.
    pub async fn finish_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let mut batch = Vec::with_capacity(256);
        loop {
            batch.clear();
            if self.events.recv_many(&mut batch, 256).await == 0 {
                return events;
            }
            let mut drained = batch.drain(..);
            for event in drained.by_ref() {
                let finished = matches!(event.msg, EventMsg::TurnFinished { .. });
                events.push(event);
                if finished {
                    // Events after TurnFinished belong to what comes next; none exist yet
                    // because the runtime waits for the next op.
                    return events;
                }
            }
        }
    }

    /// Stops the runtime and returns the events it emitted while stopping.
    pub async fn shutdown(mut self) -> Vec<Event> {
        let _ = self.ops.send(Op::Shutdown).await;
        let mut events = Vec::new();
        while let Some(event) = self.events.recv().await {
            events.push(event);
        }
        let _ = self.task.await;
        events
    }
}
