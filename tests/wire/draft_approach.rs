//! `draft_approach` over real HTTP, on two protocols: offered beside `submit_checklist`
//! with MassGen's schema, called after a `new_answer` verdict, judged, reported, and its
//! result read back by the model before it answers again.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use massgen::protocol::{EventMsg, TurnOutcome};
use serde_json::json;

use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool, vote_targets};
use crate::support::{outcome, run_once};

/// A model that answers, fails its first checklist, drafts an approach, answers again,
/// passes its second checklist and votes; it presents when no workflow tools are offered.
async fn iterating_model(wire: Wire) -> MockLlm {
    let answered = AtomicBool::new(false);
    let checklists = AtomicUsize::new(0);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if !body.contains("\"new_answer\"") {
            return text(wire, "Four.");
        }
        if !answered.swap(true, Ordering::SeqCst) {
            return tool(wire, "new_answer", &json!({"content": "2+2 is 4."}));
        }
        if body.contains("Your approach is recorded") {
            return tool(
                wire,
                "new_answer",
                &json!({"content": "2+2 is 4: two pairs make four, as counting shows."}),
            );
        }
        if body.contains("Verdict: new_answer") {
            let plan = json!({
                "vision": "A short answer that shows why",
                "plan": {
                    "E2": [{"plan": "show the counting", "sources": ["fresh"], "impact": "structural"}],
                    "E3": [{"plan": "add the reason", "sources": ["fresh"], "impact": "incremental"}],
                },
            });
            return tool(wire, "draft_approach", &plan);
        }
        if !body.contains("Verdict: vote") {
            let scores = if checklists.fetch_add(1, Ordering::SeqCst) == 0 {
                json!({"E1": 9, "E2": 2, "E3": 2, "E4": 9})
            } else {
                json!({"E1": 9, "E2": 9, "E3": 8, "E4": 8})
            };
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

async fn approach_turn(wire: Wire) {
    let server = iterating_model(wire).await;
    let backend = wire.backend(&server.base_url);
    let yaml = format!(
        "agent:\n  id: solo\n  backend: {backend}\n\
         orchestrator:\n  voting_sensitivity: checklist_gated\n"
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed, "{backend}");
    let approaches: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ApproachDrafted { approach } => Some(approach.summary()),
            _ => None,
        })
        .collect();
    assert_eq!(
        approaches,
        ["E2 structural, E3 incremental — vision: A short answer that shows why"],
        "{backend}"
    );
    let requests = server.requests();
    let offered = requests[1].body.to_string();
    assert!(
        offered.contains("\"draft_approach\""),
        "{backend}: {offered}"
    );
    assert!(offered.contains("\"preserve\""), "{backend}");
    assert!(
        requests
            .iter()
            .any(|request| request.body.to_string().contains("Call `draft_approach`")),
        "{backend}: the new_answer verdict asks for an approach"
    );
    let answers = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::AnswerSubmitted { .. }))
        .count();
    assert_eq!(answers, 2, "{backend}");
}

#[tokio::test]
async fn draft_approach_round_trips_on_chat_completions_and_anthropic() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        approach_turn(wire).await;
    }
}
