//! Secrets taken out of events before they are logged or shown. Streamed text is redacted
//! per stream (agent and kind) with the end of each piece held back until it cannot be the
//! start of a secret; any other event is redacted whole, and first releases what its
//! agent's streams hold, so nothing is reordered.
//!
//! Text deltas were already redacted once, by `backend::redacting` as they left the agent's
//! backend, and are redacted again here on purpose: the backend knows only its config's
//! secrets (for what goes back into prompts and answers), while this redactor is the run's —
//! on a terminal run every provider key set in the environment, so the key of an agent added
//! later through `/agents`, or one a tool echoed from the environment, is caught too — and it
//! is the one place every logged or shown event passes, whatever produced it.

use std::collections::BTreeMap;

use crate::protocol::{AgentId, EventMsg};
use crate::redact::{Redactor, StreamHold};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stream {
    Text,
    Reasoning,
    FinalPresentation,
}

impl Stream {
    fn of(msg: &EventMsg) -> Option<(Self, &str)> {
        if let EventMsg::TextDelta { text } = msg {
            Some((Self::Text, text))
        } else if let EventMsg::ReasoningDelta { text } = msg {
            Some((Self::Reasoning, text))
        } else if let EventMsg::FinalPresentationDelta { text } = msg {
            Some((Self::FinalPresentation, text))
        } else {
            None
        }
    }

    fn event(self, text: String) -> EventMsg {
        match self {
            Self::Text => EventMsg::TextDelta { text },
            Self::Reasoning => EventMsg::ReasoningDelta { text },
            Self::FinalPresentation => EventMsg::FinalPresentationDelta { text },
        }
    }
}

pub struct EventRedaction {
    redactor: Redactor,
    holds: BTreeMap<(Option<AgentId>, Stream), StreamHold>,
}

impl EventRedaction {
    pub fn new(redactor: Redactor) -> Self {
        Self {
            redactor,
            holds: BTreeMap::new(),
        }
    }

    /// What to emit for `msg` from `agent`, in order: nothing while a piece is held, held
    /// text released ahead of another event, and the event itself with secrets replaced.
    pub fn process(&mut self, agent: Option<&AgentId>, msg: EventMsg) -> Vec<EventMsg> {
        if let Some((stream, text)) = Stream::of(&msg) {
            let hold = self.holds.entry((agent.cloned(), stream)).or_default();
            let shown = hold.push(&self.redactor, text);
            return if shown.is_empty() {
                Vec::new()
            } else {
                vec![stream.event(shown)]
            };
        }
        let mut out = self.release(agent);
        out.push(self.redact_whole(msg));
        out
    }

    /// Held text of `agent`'s streams (of every stream for an event of no agent).
    fn release(&mut self, agent: Option<&AgentId>) -> Vec<EventMsg> {
        let mut out = Vec::new();
        for ((owner, stream), hold) in &mut self.holds {
            if (agent.is_none() || owner.as_ref() == agent) && !hold.is_empty() {
                out.push(stream.event(hold.finish()));
            }
        }
        out
    }

    /// `msg` with every secret in any of its strings replaced. Secrets are plain text in
    /// JSON (and their escaped forms are known to the redactor), so the event is redacted
    /// as the JSON it is logged as and read back only when something was replaced.
    fn redact_whole(&self, msg: EventMsg) -> EventMsg {
        let Ok(json) = serde_json::to_string(&msg) else {
            return msg;
        };
        let redacted = self.redactor.redact(&json);
        if matches!(redacted, std::borrow::Cow::Borrowed(_)) {
            return msg;
        }
        serde_json::from_str(&redacted).unwrap_or_else(|error| EventMsg::Warning {
            message: format!("an event held a configured secret and was withheld ({error})"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-hostile-secret-42";

    fn text_of(events: &[EventMsg]) -> String {
        events
            .iter()
            .map(|msg| match msg {
                EventMsg::TextDelta { text } => format!("T:{text}|"),
                EventMsg::ReasoningDelta { text } => format!("R:{text}|"),
                EventMsg::Warning { message } => format!("W:{message}|"),
                other => format!("{other:?}|"),
            })
            .collect()
    }

    #[test]
    fn a_key_split_over_deltas_is_replaced_and_held_text_precedes_the_next_event() {
        let mut redaction = EventRedaction::new(Redactor::new([KEY]));
        let agent = AgentId::new("a");
        let mut out = Vec::new();
        for piece in ["key: sk-host", "ile-secret", "-42 ok sk-"] {
            out.extend(redaction.process(
                Some(&agent),
                EventMsg::TextDelta {
                    text: piece.to_string(),
                },
            ));
        }
        out.extend(redaction.process(
            Some(&agent),
            EventMsg::ReasoningDelta {
                text: format!("thinking {KEY}"),
            },
        ));
        out.extend(redaction.process(
            None,
            EventMsg::Warning {
                message: format!("provider said {KEY}"),
            },
        ));
        assert_eq!(
            text_of(&out),
            "T:key: |T:[REDACTED] ok |R:thinking [REDACTED]|T:sk-|W:provider said [REDACTED]|"
        );
    }

    #[test]
    fn events_without_secrets_pass_unchanged() {
        let mut redaction = EventRedaction::new(Redactor::new([KEY]));
        let msg = EventMsg::Warning {
            message: "nothing here".to_string(),
        };
        assert_eq!(redaction.process(None, msg.clone()), vec![msg]);
    }
}
