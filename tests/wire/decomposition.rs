//! Decomposition mode over real HTTP, on two protocols: `stop` is offered with MassGen's
//! schema instead of `vote`, the model's call is judged, and the presenter integrates.

use std::sync::atomic::{AtomicBool, Ordering};

use massgen::protocol::{EventMsg, TurnOutcome};
use serde_json::json;

use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool};
use crate::support::{outcome, run_once};

/// A model that answers its subtask, then stops; it presents when no workflow tools are
/// offered.
async fn subtask_model(wire: Wire) -> MockLlm {
    let answered = AtomicBool::new(false);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if !body.contains("\"new_answer\"") {
            return text(wire, "The whole API, integrated.");
        }
        if !answered.swap(true, Ordering::SeqCst) {
            return tool(
                wire,
                "new_answer",
                &json!({"content": "Endpoints written."}),
            );
        }
        tool(
            wire,
            "stop",
            &json!({"summary": "endpoints done", "status": "complete"}),
        )
    })
    .await
}

async fn decomposition_turn(wire: Wire) {
    let server = subtask_model(wire).await;
    let backend = wire.backend(&server.base_url);
    let yaml = format!(
        "agent:\n  id: solo\n  subtask: Write the endpoints\n  backend: {backend}\n\
         orchestrator:\n  coordination_mode: decomposition\n"
    );
    let (events, _scenario) = run_once(&yaml, "Build the API").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed, "{backend}");
    let stops: Vec<(String, String)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AgentStopped { summary, status } => Some((summary.clone(), status.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        stops,
        [("endpoints done".to_string(), "complete".to_string())],
        "{backend}"
    );
    let offered = server.requests()[0].body.to_string();
    assert!(offered.contains("\"stop\""), "{backend}: {offered}");
    assert!(
        offered.contains("\"blocked\"") && offered.contains("\"summary\""),
        "{backend}"
    );
    assert!(!offered.contains("\"vote\""), "{backend}");
    assert!(
        offered.contains("Write the endpoints"),
        "{backend}: the subtask is sent"
    );
}

#[tokio::test]
async fn stop_round_trips_on_chat_completions_and_anthropic() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        decomposition_turn(wire).await;
    }
}
