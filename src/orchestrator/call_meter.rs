//! Meters one model call: its time to first output and duration, and its usage — the
//! provider's, or a tokenizer estimate when the provider reported none or the stream was
//! cut (an error, a restart or a cancel drops the meter mid-stream).

use std::time::Duration;

use tokio::time::Instant;

use super::agent_link::AgentLink;
use crate::backend::{
    AssistantTurn, BackendError, Message, StreamEvent, ToolSpec, TurnBuilder, tokens,
};
use crate::protocol::CallTiming;

pub struct CallMeter<'a> {
    link: &'a AgentLink,
    messages: &'a [Message],
    tools: &'a [ToolSpec],
    builder: TurnBuilder,
    started: Instant,
    first_output: Option<Duration>,
    reported: bool,
}

impl<'a> CallMeter<'a> {
    pub fn start(link: &'a AgentLink, messages: &'a [Message], tools: &'a [ToolSpec]) -> Self {
        Self {
            link,
            messages,
            tools,
            builder: TurnBuilder::default(),
            started: Instant::now(),
            first_output: None,
            reported: false,
        }
    }

    pub fn push(&mut self, event: &StreamEvent) {
        if self.first_output.is_none()
            && matches!(
                event,
                StreamEvent::TextDelta(_)
                    | StreamEvent::ReasoningDelta(_)
                    | StreamEvent::ToolCallStart { .. }
            )
        {
            self.first_output = Some(self.started.elapsed());
        }
        self.builder.push(event);
    }

    /// Reports the call's usage and returns the complete turn.
    pub fn finish(mut self) -> Result<AssistantTurn, BackendError> {
        self.report();
        std::mem::take(&mut self.builder).finish()
    }

    /// Reports the usage once. A call cut before anything streamed reports nothing: a
    /// provider that refused the request bills nothing either.
    fn report(&mut self) {
        if std::mem::replace(&mut self.reported, true) {
            return;
        }
        let usage = match self.builder.reported_usage() {
            Some(usage) => usage,
            None if self.first_output.is_none() => return,
            None => self
                .builder
                .estimated_usage(tokens::count_prompt(self.messages, self.tools)),
        };
        let millis = |duration: Duration| u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        self.link.record_usage(
            usage,
            CallTiming {
                duration_ms: millis(self.started.elapsed()),
                ttft_ms: self.first_output.map(millis),
            },
        );
    }
}

impl Drop for CallMeter<'_> {
    fn drop(&mut self) {
        self.report();
    }
}
