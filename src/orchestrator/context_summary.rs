//! The model's own summary of the messages a context-length recovery takes out, as
//! MassGen's `compress_messages_for_recovery` asks for one: a call to the agent's backend
//! without tools, with summarizer instructions, the transcript of those messages cut to
//! leave the window room for the summary.

use std::sync::Arc;

use super::model_call::{ModelLink, TextRole};
use crate::backend::{Message, compression, tokens};

/// Room kept in the window for the summary (MassGen's fixed output budget), at most a
/// quarter of a small window.
pub const SUMMARY_OUTPUT_TOKENS: u64 = 4096;

const SUMMARIZER_INSTRUCTIONS: &str = "\
You write the summary that lets an agent carry on with a task after the older part of its \
conversation is dropped to fit its model's context window.

The task is still in progress. The agent reads your summary and keeps working; never \
suggest that the work is finished when it is not.

Cover, in this order:

1. Task: what the agent was asked to do, in a sentence or two.
2. Work done:
   - files created or changed, with their full paths;
   - the tool calls that mattered and what they returned;
   - code written, commands run, settings changed.
3. Setup: packages installed, directories made, environment prepared.
4. Findings and details:
   - paths and what each holds;
   - decisions taken and why;
   - errors met, and whether and how they were solved;
   - interfaces, signatures or facts the work relies on.
5. Where the work stands now.
6. Next steps: the concrete tasks still to do, explicitly and in detail.

Be specific: the summary replaces the conversation, and the agent has nothing else to go \
on. Name files, values and decisions rather than describing them vaguely. End by making \
clear what the agent does next, so that it continues working.";

const CONVERSATION_INTRO: &str = "The conversation to summarize:\n\n";

/// The last message of the summary request.
pub const SUMMARY_REQUEST: &str = "Now write the summary of the conversation above.";

/// The summarizer's messages: its instructions, then the transcript of `removed` (cut to
/// what `window` holds besides them and the summary), then the request, each apart so the
/// model does not take instructions inside the conversation for its own.
pub fn summary_request(removed: &[Message], window: u64) -> Vec<Message> {
    let with = |transcript: &str| {
        vec![
            Message::system(SUMMARIZER_INSTRUCTIONS),
            Message::user(format!("{CONVERSATION_INTRO}{transcript}")),
            Message::user(SUMMARY_REQUEST),
        ]
    };
    let prompts = tokens::count_prompt(&with(""), &[]);
    let budget = window
        .saturating_sub(prompts)
        .saturating_sub(SUMMARY_OUTPUT_TOKENS.min(window / 4))
        .saturating_sub(window / 10);
    with(&compression::truncate_to(
        &compression::transcript(removed),
        budget,
    ))
}

/// Asks the agent's model, without tools, to summarize `removed`; its usage counts like
/// any call's. Why there is no summary when the call failed or wrote nothing.
pub async fn summarize(
    model: &ModelLink,
    removed: &[Message],
    window: u64,
) -> Result<String, String> {
    let messages = Arc::new(summary_request(removed, window));
    let turn = model
        .call_model(&messages, &[], TextRole::Quiet)
        .await
        .map_err(|error| error.to_string())?;
    let summary = turn.text.trim();
    if summary.is_empty() {
        return Err("the model wrote no summary".into());
    }
    Ok(summary.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_carries_the_transcript_cut_to_leave_room_for_the_summary() {
        let removed = vec![
            Message::assistant("Reading the notes.", Vec::new()),
            Message::user("word ".repeat(20_000)),
        ];
        let window = 8192;
        let request = summary_request(&removed, window);
        assert_eq!(request.len(), 3);
        assert!(
            matches!(&request[0], Message::System { content } if content == SUMMARIZER_INSTRUCTIONS)
        );
        let conversation = request[1].content();
        assert!(conversation.starts_with(CONVERSATION_INTRO));
        assert!(conversation.contains("[assistant]\nReading the notes."));
        assert!(conversation.ends_with("[... truncated to fit context ...]"));
        assert_eq!(request[2].content(), SUMMARY_REQUEST);
        let room = window - tokens::count_prompt(&request, &[]);
        assert!(
            room >= SUMMARY_OUTPUT_TOKENS.min(window / 4),
            "{room} tokens left"
        );

        let short = summary_request(&removed[..1], window);
        assert!(!short[1].content().contains("truncated"));
    }
}
