//! The debate over real HTTP, on two protocols: a member critiques with the `critique` tool
//! (its schema lists the peers it was shown) or, ignoring the tool, in text that counts for
//! every peer shown; a `critique` naming a peer it was not shown is refused with the peers
//! it may name; it revises with `new_answer` and chairs the synthesis.

use std::sync::atomic::{AtomicBool, Ordering};

use massgen::protocol::{EnforcementReason, EventMsg, StrategyEvent};
use serde_json::json;

use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool};
use crate::support::{assert_completed, final_answer, run_once};

/// A member that answers, critiques (with the tool, or in text when `in_text`), revises and
/// chairs. Its first `critique` call names a peer it was not shown.
async fn member_model(wire: Wire, in_text: bool) -> MockLlm {
    let refused = AtomicBool::new(false);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if body.contains("\"name\":\"critique\"") {
            if in_text {
                return text(wire, "Its 4 is right.");
            }
            if !refused.swap(true, Ordering::SeqCst) {
                let wrong = json!({"critiques": [{"agent": "agent9", "critique": "?"}]});
                return tool(wire, "critique", &wrong);
            }
            let critique =
                json!({"critiques": [{"agent": "agent2", "critique": "Its 4 is right."}]});
            return tool(wire, "critique", &critique);
        }
        if body.contains("CRITIQUES OF YOUR ANSWER") {
            return tool(
                wire,
                "new_answer",
                &json!({"content": "2 + 2 = 4, as defended"}),
            );
        }
        if body.contains("\"name\":\"new_answer\"") {
            return tool(wire, "new_answer", &json!({"content": "2 + 2 = 4"}));
        }
        text(wire, "The debate's answer: 4.")
    })
    .await
}

async fn debate_turn(wire: Wire, in_text: bool) {
    let server = member_model(wire, in_text).await;
    let backend = wire.backend(&server.base_url);
    let yaml = format!(
        "agents:\n  - id: wired\n    backend: {backend}\n  - id: local\n    backend: \
         {{type: scripted, tokens_per_second: 0, answer: \"4\"}}\norchestrator:\n  strategy: \
         debate\n  debate_rounds: 1\n"
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    let critique = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::Strategy(StrategyEvent::CritiqueSubmitted {
                round,
                targets,
                content,
            }) if event
                .agent
                .as_ref()
                .is_some_and(|agent| agent.as_str() == "wired") =>
            {
                Some((*round, targets.clone(), content.clone()))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{backend}: no critique from the wired member"));
    assert_eq!(critique.0, 1);
    assert_eq!(critique.1.len(), 1);
    assert_eq!(critique.1[0].as_str(), "local");
    assert_eq!(critique.2, "Its 4 is right.", "{backend}");
    let requests = server.requests();
    let critiquing = requests[1].body.to_string();
    assert!(
        critiquing.contains("\"enum\":[\"agent2\"]") && critiquing.contains("<agent2>"),
        "{backend}: {critiquing}"
    );
    if !in_text {
        assert!(events.iter().any(|event| matches!(&event.msg,
            EventMsg::EnforcementRetry { reason: EnforcementReason::InvalidArguments, detail, .. }
                if detail.contains("`agent9` is not a peer whose answer you were shown"))));
        let retry = requests[2].body.to_string();
        assert!(retry.contains("The peers: agent2."), "{backend}: {retry}");
    }
    let revised = events.iter().any(|event| {
        matches!(&event.msg, EventMsg::AnswerSubmitted { content, .. }
            if content == "2 + 2 = 4, as defended")
    });
    assert!(revised, "{backend}");
    // The first member still in the debate chairs.
    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(!fallback);
    assert_eq!(answer, "The debate's answer: 4.", "{backend}");
    let calls = if in_text { 4 } else { 5 };
    assert_eq!(requests.len(), calls, "{backend}");
}

#[tokio::test]
async fn critique_round_trips_on_chat_completions_and_anthropic() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        debate_turn(wire, false).await;
    }
}

#[tokio::test]
async fn a_critique_in_text_only_counts_for_every_peer_shown() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        debate_turn(wire, true).await;
    }
}
