//! The council over real HTTP, on two protocols: a member answers with `new_answer` alone,
//! ranks with the `rank` tool (its schema lists the labels it was shown) or, ignoring the
//! tool, with a "FINAL RANKING:" list the fallback parser counts, and chairs the synthesis;
//! a `rank` naming a label it was not shown is refused with the labels it may use.

use std::sync::atomic::{AtomicBool, Ordering};

use massgen::protocol::{EnforcementReason, EventMsg, RankingSource, StrategyEvent};
use serde_json::json;

use crate::mock_llm::{MockLlm, Recorded};
use crate::multi_protocol::{Wire, text, tool};
use crate::support::{assert_completed, final_answer, run_once};

/// A member that answers, ranks (with the tool, or in text when `in_text`) and chairs. Its
/// first `rank` call names a label it was not shown; the refusal tells it which it may use.
async fn member_model(wire: Wire, in_text: bool) -> MockLlm {
    let refused = AtomicBool::new(false);
    MockLlm::with_responder(move |request: &Recorded| {
        let body = request.body.to_string();
        if body.contains("\"rank\"") {
            if !in_text && !refused.swap(true, Ordering::SeqCst) {
                return tool(wire, "rank", &json!({"ranking": ["Response Z"]}));
            }
            if in_text {
                return text(
                    wire,
                    "Response A is right.\n\nFINAL RANKING:\n1. Response A",
                );
            }
            return tool(
                wire,
                "rank",
                &json!({"ranking": ["Response A"], "reasoning": "it is right"}),
            );
        }
        if body.contains("\"new_answer\"") {
            return tool(wire, "new_answer", &json!({"content": "2 + 2 = 4"}));
        }
        text(wire, "The council's answer: 4.")
    })
    .await
}

async fn council_turn(wire: Wire, in_text: bool) {
    let server = member_model(wire, in_text).await;
    let backend = wire.backend(&server.base_url);
    let yaml = format!(
        "agents:\n  - id: wired\n    backend: {backend}\n  - id: local\n    backend: \
         {{type: scripted, tokens_per_second: 0, answer: \"4\"}}\norchestrator:\n  strategy: \
         council\n"
    );
    let (events, _scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    let ballot = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::Strategy(StrategyEvent::RankingSubmitted {
                order,
                shown,
                source,
            }) if event
                .agent
                .as_ref()
                .is_some_and(|agent| agent.as_str() == "wired") =>
            {
                Some((order.clone(), shown.clone(), *source))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{backend}: no ballot from the wired member"));
    let expected = if in_text {
        RankingSource::Text
    } else {
        RankingSource::Tool
    };
    assert_eq!(ballot.2, expected, "{backend}");
    assert_eq!(ballot.0.len(), 1);
    assert_eq!(ballot.0[0].as_str(), "local");
    assert_eq!(ballot.1[0].0, "Response A");
    let requests = server.requests();
    let answering = requests[0].body.to_string();
    assert!(
        answering.contains("\"new_answer\"") && !answering.contains("\"vote\""),
        "{backend}"
    );
    let ranking = requests[1].body.to_string();
    assert!(
        ranking.contains("\"rank\"") && ranking.contains("FINAL RANKING"),
        "{backend}"
    );
    if !in_text {
        // The bad label was refused as an enforcement retry, with the labels to use.
        assert!(events.iter().any(|event| matches!(&event.msg,
            EventMsg::EnforcementRetry { reason: EnforcementReason::InvalidVote, detail, .. }
                if detail.contains("`Response Z` is not a response you were shown"))));
        let retry = requests[2].body.to_string();
        assert!(
            retry.contains("The labels: Response A."),
            "{backend}: {retry}"
        );
    }
    // Tied, config order breaks the tie: the wired member chairs.
    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(!fallback);
    assert_eq!(answer, "The council's answer: 4.", "{backend}");
    let calls = if in_text { 3 } else { 4 };
    assert_eq!(requests.len(), calls, "{backend}");
}

#[tokio::test]
async fn rank_round_trips_on_chat_completions_and_anthropic() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        council_turn(wire, false).await;
    }
}

#[tokio::test]
async fn a_ranking_in_text_only_is_counted_by_the_fallback_parser() {
    for wire in Wire::CHAT_AND_ANTHROPIC {
        council_turn(wire, true).await;
    }
}
