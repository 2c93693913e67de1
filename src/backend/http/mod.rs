//! What every HTTP provider shares: the SSE decoder, the call loop with timeouts and
//! retries, and the mapping of error replies. Each wire protocol supplies a [`Wire`].

mod call;
mod context_error;
mod guard;
pub mod misroute;
pub mod retry;
pub mod sse;
pub mod status;

use std::collections::VecDeque;

pub use call::HttpBackend;
pub use guard::StreamLimits;
pub(in crate::backend) use guard::{End, read_capped};
pub use misroute::Misroute;
pub use retry::RetryPolicy;
pub use sse::{SseDecoder, SseError, SseEvent};
pub use status::CallSite;

use super::{BackendError, ChatRequest, StreamEvent};

/// One provider protocol: how to ask, and how to read the answer.
pub trait Wire: Send + Sync + 'static {
    /// Who is called, for error messages.
    fn site(&self) -> &CallSite;

    /// The request format, for what attachments it carries and how large.
    fn api(&self) -> crate::config::provider_options::Api;

    /// The HTTP request for one model call (URL, headers, JSON body).
    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder;

    /// A fresh reader for one response.
    fn decoder(&self) -> Box<dyn WireDecoder>;

    /// A fresh reader for the response to `request`, for a protocol whose reading depends
    /// on what was asked (Gemini's workflow tools sent as JSON text).
    fn decoder_for(&self, request: &ChatRequest) -> Box<dyn WireDecoder> {
        let _ = request;
        self.decoder()
    }

    /// For an OpenAI-compatible base that names no API version: where calls go, so that a
    /// 404 or a web page is explained as a missing `/v1`.
    fn misroute(&self) -> Option<&Misroute> {
        None
    }
}

/// Whether the protocol's end-of-response marker has been seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Finished,
}

/// Reads one response, event by event, into provider-neutral [`StreamEvent`]s.
pub trait WireDecoder: Send {
    /// One server-sent event.
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError>;

    /// The connection closed. Protocols without an explicit end marker finish here;
    /// `Continue` means the response is incomplete.
    fn end(&mut self, out: &mut VecDeque<StreamEvent>) -> Result<Flow, BackendError> {
        let _ = out;
        Ok(Flow::Continue)
    }

    /// A server that ignored `stream: true` and sent one JSON document.
    fn whole_body(
        &mut self,
        text: &str,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let _ = (text, out);
        Err(BackendError::Failed {
            message: "the provider answered with a JSON document instead of an event stream".into(),
        })
    }
}

/// Parses one event's JSON, or says which provider sent something unreadable.
pub fn parse_json<'a, T: serde::Deserialize<'a>>(
    site: &CallSite,
    data: &'a str,
) -> Result<T, BackendError> {
    serde_json::from_str(data).map_err(|error| BackendError::Malformed {
        message: format!(
            "{} sent a malformed stream: an event massgen cannot read ({error}): {}",
            site.provider,
            preview(data)
        ),
    })
}

fn preview(text: &str) -> &str {
    match text.char_indices().nth(200) {
        Some((cut, _)) => &text[..cut],
        None => text,
    }
}
