//! Which CLI session a start continues, and what it is told: a retry within a round resumes
//! the round's session with only the new messages; a new turn resumes the agent's last
//! session without the conversation history (the session holds it); anything else (a
//! restart after a peer's answer, a presentation) starts a fresh session with everything.

use std::sync::Arc;

use crate::backend::Message;

/// Where massgen's round prompt carries the earlier turns of the conversation.
pub const HISTORY_OPEN: &str = "<CONVERSATION_HISTORY>\n";
pub const HISTORY_CLOSE: &str = "<END OF CONVERSATION_HISTORY>\n\n";

/// The session the agent's last start ran in, and what it was asked.
#[derive(Clone, Debug, Default)]
pub struct LastSession {
    pub id: Option<String>,
    pub messages: Option<Arc<Vec<Message>>>,
}

/// How one start begins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub resume: Option<String>,
    pub system_prompt: String,
    pub prompt: String,
    /// A resumed session last ran with another system prompt.
    pub system_changed: bool,
}

/// Decides how a start with `messages` begins after `last`.
pub fn opening(last: &LastSession, messages: &[Message]) -> Opening {
    let system_prompt = system_text(messages);
    if let (Some(id), Some(before)) = (&last.id, &last.messages) {
        if messages.len() > before.len() && messages[..before.len()] == before[..] {
            return Opening {
                resume: Some(id.clone()),
                system_changed: system_text(before) != system_prompt,
                system_prompt,
                prompt: user_text(&messages[before.len()..]),
            };
        }
        let (earlier, now) = (history(before), history(messages));
        if let (Some(now), earlier) = (now, earlier)
            && earlier.is_none_or(|earlier| earlier != now && now.starts_with(earlier))
        {
            return Opening {
                resume: Some(id.clone()),
                system_changed: system_text(before) != system_prompt,
                system_prompt,
                prompt: without_history(&user_text(messages)),
            };
        }
    }
    Opening {
        resume: None,
        system_prompt,
        prompt: user_text(messages),
        system_changed: false,
    }
}

fn system_text(messages: &[Message]) -> String {
    texts(messages, |message| {
        matches!(message, Message::System { .. })
    })
}

/// The user messages' text (a retry's nudge, a round's prompt), with any tool results the
/// messages carry.
/// Attached files are named by path: the CLI reads them with its own tools.
fn user_text(messages: &[Message]) -> String {
    let mut text = texts(messages, |message| {
        matches!(message, Message::User { .. } | Message::Tool { .. })
    });
    let paths: Vec<String> = messages
        .iter()
        .filter_map(|message| match message {
            Message::User { attachments, .. } => Some(attachments),
            _ => None,
        })
        .flatten()
        .filter_map(|attachment| {
            let place = match (&attachment.path, &attachment.url) {
                (Some(path), _) => path.display().to_string(),
                (None, Some(url)) => url.clone(),
                (None, None) => return None,
            };
            Some(format!("- {place} ({})", attachment.media_type))
        })
        .collect();
    if !paths.is_empty() {
        text.push_str("\n\nFiles attached to this message (open them from these paths or URLs):\n");
        text.push_str(&paths.join("\n"));
    }
    text
}

fn texts(messages: &[Message], wanted: impl Fn(&Message) -> bool) -> String {
    messages
        .iter()
        .filter(|message| wanted(message))
        .map(Message::content)
        .filter(|text| !text.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The history block of the first user message, without its markers.
fn history(messages: &[Message]) -> Option<&str> {
    let first = messages
        .iter()
        .find(|message| matches!(message, Message::User { .. }))?;
    let text = first.content();
    let start = text.find(HISTORY_OPEN)? + HISTORY_OPEN.len();
    let end = start + text[start..].find(HISTORY_CLOSE)?;
    Some(&text[start..end])
}

fn without_history(prompt: &str) -> String {
    let Some(start) = prompt.find(HISTORY_OPEN) else {
        return prompt.to_string();
    };
    match prompt[start..].find(HISTORY_CLOSE) {
        Some(length) => {
            let end = start + length + HISTORY_CLOSE.len();
            format!("{}{}", &prompt[..start], &prompt[end..])
        }
        None => prompt.to_string(),
    }
}

#[cfg(test)]
mod tests;
