//! Compression keeps the system prompt, the question and the recent messages, and
//! replaces the rest by a record cut to fit.

use super::*;
use crate::backend::message::ToolCall;

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments: format!("{{\"path\":\"{id}.txt\"}}"),
        signature: None,
    }
}

/// System, question, then `pairs` tool round-trips each with a result of `words` words.
fn conversation(pairs: usize, words: usize) -> Vec<Message> {
    let mut messages = vec![
        Message::system("You are agent one."),
        Message::user("Summarise the files."),
    ];
    for pair in 0..pairs {
        let id = format!("c{pair}");
        messages.push(Message::assistant("", vec![call(&id)]));
        messages.push(Message::Tool {
            call_id: id.clone(),
            name: "read_file".into(),
            content: format!("result {pair} ") + &"lorem ipsum ".repeat(words),
            is_error: false,
        });
    }
    messages
}

#[test]
fn past_the_threshold_the_recent_messages_within_the_budget_stay() {
    let messages = conversation(20, 200);
    let before = count(&messages);
    let compressed = compress(&messages, Keep::Tokens(2000), 8000).unwrap();
    let kept = &compressed.messages;
    assert_eq!(kept[0], messages[0], "the system prompt stays");
    let Message::User { content, .. } = &kept[1] else {
        panic!("the question stays second: {kept:?}");
    };
    assert!(content.starts_with("Summarise the files.\n\n[CONTEXT RECOVERY"));
    assert!(content.contains("[Tool Call: read_file]"), "{content}");
    assert!(
        content.contains(&format!(
            "{CALLS_MADE}read_file ({}).",
            compressed.removed / 2
        )),
        "the count of calls survives the cut transcript: {content}"
    );
    assert!(
        content.contains("[... truncated to fit context ...]"),
        "{content}"
    );
    assert_eq!(kept.last(), messages.last(), "the latest result stays");
    assert!(
        matches!(kept[2], Message::Assistant { .. }),
        "a kept tool result keeps its call"
    );
    assert!(compressed.removed > 0);
    assert!(count(kept) < before / 2, "{} of {before}", count(kept));
}

#[test]
fn after_an_error_a_share_of_the_messages_stays() {
    let messages = conversation(10, 20);
    let compressed = compress(&messages, Keep::Share(0.2), 100_000).unwrap();
    // 20 messages after the question: 4 stay, as MassGen's `int(20 * 0.2)`.
    assert_eq!(compressed.removed, 16);
    assert_eq!(compressed.messages.len(), 2 + 4);
    assert_eq!(&compressed.messages[2..], &messages[18..]);
}

#[test]
fn the_models_summary_can_take_the_removed_messages_place() {
    let messages = conversation(10, 20);
    let keep = Keep::Share(0.2);
    let removed = removed(&messages, keep);
    assert_eq!(removed, &messages[2..18], "what the summary is asked about");
    let summary = "Files c0 to c7 were read; c8 and c9 remain.";
    let compressed =
        compress_replacing(&messages, keep, 100_000, Replacement::Summary(summary)).unwrap();
    assert_eq!(compressed.removed, 16);
    assert_eq!(&compressed.messages[2..], &messages[18..]);
    let question = compressed.messages[1].content();
    assert!(question.starts_with(&format!("Summarise the files.\n\n{RECOVERY_MARK}")));
    assert!(question.contains(summary), "{question}");
    assert!(question.contains(&format!("{CALLS_MADE}read_file (8).")));
    assert!(
        !question.contains("[Tool Result]"),
        "no transcript: {question}"
    );
    assert!(
        question
            .trim_end()
            .ends_with("Continue working now, from where the summary leaves off.")
    );
}

#[test]
fn a_share_never_starts_on_a_tool_result() {
    let messages = conversation(10, 20);
    // 20 * 0.15 = 3 would start on a result: its call comes along.
    let compressed = compress(&messages, Keep::Share(0.15), 100_000).unwrap();
    assert_eq!(compressed.messages.len(), 2 + 4);
    assert!(matches!(compressed.messages[2], Message::Assistant { .. }));
}

#[test]
fn a_conversation_still_too_long_has_its_largest_message_truncated() {
    let mut messages = conversation(1, 20);
    messages.push(Message::user("big ".repeat(20_000)));
    let compressed = compress(&messages, Keep::Share(0.5), 5000).unwrap();
    assert!(
        count(&compressed.messages) <= 5000,
        "{}",
        count(&compressed.messages)
    );
    assert!(
        compressed
            .messages
            .last()
            .unwrap()
            .content()
            .ends_with(TRUNCATED_MARK)
    );
}

#[test]
fn nothing_to_take_out_is_no_compression() {
    let messages = vec![Message::system("s"), Message::user("q")];
    assert_eq!(compress(&messages, Keep::Share(0.2), 10_000), None);
}

#[test]
fn truncation_respects_the_budget_and_character_boundaries() {
    let text = "héllo wörld ".repeat(500);
    let cut = truncate_to(&text, 100);
    assert!(cut.ends_with(TRUNCATED_MARK));
    let body = cut.strip_suffix(TRUNCATED_MARK).unwrap();
    assert!(tokens::count(body) <= 100);
    assert!(tokens::count(body) > 80, "{}", tokens::count(body));
    assert_eq!(truncate_to("short", 100), "short");
}
