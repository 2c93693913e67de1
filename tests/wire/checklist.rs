//! Checklist-gated voting over real HTTP, on two protocols: `submit_checklist` is offered
//! with MassGen's schema, the model's call is judged, and the verdict comes back as the
//! tool result the model reads before it votes.

use std::sync::atomic::{AtomicBool, Ordering};

use massgen::protocol::{ChecklistVerdict, EventMsg, TurnOutcome};
use serde_json::json;

use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool, vote_targets};
use crate::support::{outcome, run_once};

/// A model that answers, then scores the answers with `submit_checklist`, then votes once
/// the verdict is back; it presents when no workflow tools are offered.
async fn gated_model(wire: Wire) -> MockLlm {
    let answered = AtomicBool::new(false);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if !body.contains("\"new_answer\"") {
            return text(wire, "Four.");
        }
        if !answered.swap(true, Ordering::SeqCst) {
            return tool(wire, "new_answer", &json!({"content": "2+2 is 4."}));
        }
        if !body.contains("Verdict: vote") {
            let scores =
                json!({"E1": {"score": 9, "reasoning": "asked"}, "E2": 9, "E3": 8, "E4": 8});
            return tool(wire, "submit_checklist", &json!({"scores": scores}));
        }
        let targets = vote_targets(&request.body).unwrap_or_default();
        tool(
            wire,
            "vote",
            &json!({"agent_id": targets.first().cloned().unwrap_or_default(), "reason": "passes"}),
        )
    })
    .await
}

async fn checklist_turn(wire: Wire) {
    let server = gated_model(wire).await;
    let backend = wire.backend(&server.base_url);
    let yaml = format!(
        "agent:\n  id: solo\n  backend: {backend}\n\
         orchestrator:\n  voting_sensitivity: checklist_gated\n"
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed, "{backend}");
    let verdicts: Vec<ChecklistVerdict> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ChecklistSubmitted { result } => Some(result.verdict),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts, [ChecklistVerdict::Vote], "{backend}");
    let requests = server.requests();
    let offered = requests[1].body.to_string();
    assert!(
        offered.contains("\"submit_checklist\""),
        "{backend}: {offered}"
    );
    assert!(offered.contains("\"scores\""), "{backend}");
    let read_back = requests
        .iter()
        .any(|request| request.body.to_string().contains("Verdict: vote."));
    assert!(
        read_back,
        "{backend}: the verdict comes back as the tool result"
    );
}

#[tokio::test]
async fn submit_checklist_round_trips_on_chat_completions_and_anthropic() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        checklist_turn(wire).await;
    }
}
