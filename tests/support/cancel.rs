//! Turns cancelled at a chosen event, as a user pressing Ctrl+C at that moment would.

use massgen::orchestrator::OrchestratorHandle;
use massgen::protocol::{Event, EventMsg};

/// Submits `question`, cancels the turn at the first event `cancel_at` accepts, and
/// returns every event up to and including `TurnFinished`.
pub async fn run_and_cancel_at(
    handle: &mut OrchestratorHandle,
    question: &str,
    cancel_at: impl Fn(&EventMsg) -> bool,
) -> Vec<Event> {
    let submit = massgen::protocol::Op::Submit {
        options: Default::default(),
        text: question.into(),
        mode: massgen::protocol::Mode::Normal,
        context_paths: vec![],
    };
    submit_and_cancel_at(handle, submit, cancel_at).await
}

/// As [`run_and_cancel_at`], for an empty question in `mode` with `options`.
pub async fn run_and_cancel_at_mode(
    handle: &mut OrchestratorHandle,
    mode: massgen::protocol::Mode,
    options: massgen::protocol::TurnOptions,
    cancel_at: impl Fn(&EventMsg) -> bool,
) -> Vec<Event> {
    let submit = massgen::protocol::Op::Submit {
        options,
        text: String::new(),
        mode,
        context_paths: vec![],
    };
    submit_and_cancel_at(handle, submit, cancel_at).await
}

async fn submit_and_cancel_at(
    handle: &mut OrchestratorHandle,
    submit: massgen::protocol::Op,
    cancel_at: impl Fn(&EventMsg) -> bool,
) -> Vec<Event> {
    handle.ops.send(submit).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        if cancel_at(&event.msg) {
            handle
                .ops
                .send(massgen::protocol::Op::Cancel)
                .await
                .unwrap();
        }
        let done = matches!(event.msg, EventMsg::TurnFinished { .. });
        events.push(event);
        if done {
            break;
        }
    }
    events
}
