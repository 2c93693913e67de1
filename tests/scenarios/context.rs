//! Context that outgrows the model's window: a long scripted conversation fills the
//! agent's `context_window` past MassGen's 75 % threshold, its older turns are compressed
//! (reported as `ContextCompressed`, the gauge as `ContextUsage`), and the agent finishes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{outcome, run_once, transcript};
use massgen::backend::Message;
use massgen::protocol::{CompressionReason, EventMsg, TurnOutcome};

const WINDOW: u64 = 8192;

fn long_conversation() -> String {
    let query = "word ".repeat(600);
    format!(
        r#"
orchestrator:
  coordination: {{compression_target_ratio: 0.2}}
agents:
  - id: long
    backend:
      type: scripted
      tokens_per_second: 0
      context_window: {WINDOW}
      tool_call_rounds: 12
      tool_calls: [{{name: search, arguments: {{q: "{query}"}}}}]
      answer: "Done"
"#
    )
}

#[tokio::test(start_paused = true)]
async fn a_long_conversation_is_compressed_past_the_threshold_and_the_agent_finishes() {
    let (events, scenario) = run_once(&long_conversation(), "Search a lot").await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let compressions: Vec<(CompressionReason, u64, u64, u64)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ContextCompressed {
                reason,
                tokens_before,
                tokens_after,
                window,
                messages_removed,
                summarized,
            } => {
                assert!(*messages_removed > 0);
                assert!(!summarized, "past the threshold the transcript stays");
                Some((*reason, *tokens_before, *tokens_after, *window))
            }
            _ => None,
        })
        .collect();
    assert!(!compressions.is_empty(), "{:?}", transcript(&events));
    for (reason, before, after, window) in &compressions {
        assert_eq!(*reason, CompressionReason::Threshold);
        assert_eq!(
            *window, WINDOW,
            "the backend's context_window is the window"
        );
        assert!(
            *before >= WINDOW * 3 / 4,
            "compressed at {before} of {window}"
        );
        assert!(after < before, "{after} < {before}");
    }
    // The gauge: every call's prompt against the window, never past it.
    let gauge: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ContextUsage { tokens, window } => Some((*tokens, *window)),
            _ => None,
        })
        .collect();
    assert!(!gauge.is_empty());
    assert!(
        gauge
            .iter()
            .all(|(tokens, window)| *window == WINDOW && *tokens < WINDOW)
    );

    // Every round made its twelve calls: the compressed ones count, as the record says.
    let rounds = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::RoundStarted { .. }))
        .count();
    let searches = events
        .iter()
        .filter(
            |event| matches!(&event.msg, EventMsg::ToolCallBegin { tool, .. } if tool == "search"),
        )
        .count();
    assert_eq!(searches, rounds * 12);

    // The request after a compression: system prompt, the question with the record of the
    // older turns, then only the latest call and its result.
    let requests = scenario.requests_of("long");
    let compressed = requests
        .iter()
        .find(|request| {
            request.messages.iter().any(|message| {
                matches!(message, Message::User { content, .. } if content.contains("[CONTEXT RECOVERY"))
            })
        })
        .expect("a request carried the record");
    assert!(matches!(compressed.messages[0], Message::System { .. }));
    let Message::User { content, .. } = &compressed.messages[1] else {
        panic!("{:?}", compressed.messages[1]);
    };
    assert!(content.contains("Search a lot"), "the question stays");
    assert!(
        content.contains("Tool calls in them: search ("),
        "{content}"
    );
    assert!(
        compressed.messages.len() < 2 + 2 * 6,
        "{}",
        compressed.messages.len()
    );
}
