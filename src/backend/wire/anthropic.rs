//! Anthropic Messages API (`type: claude`). NOT IMPLEMENTED YET: being written in this session.

use std::collections::VecDeque;

use super::WireOptions;
use crate::backend::http::{CallSite, Flow, SseEvent, Wire, WireDecoder};
use crate::backend::{BackendError, ChatRequest, StreamEvent};
use crate::config::Secret;

pub struct AnthropicWire {
    site: CallSite,
    url: String,
}

impl AnthropicWire {
    pub fn new(site: CallSite, base_url: &str, key: Option<Secret>, options: WireOptions) -> Self {
        let _ = (key, options);
        Self {
            site,
            url: base_url.to_string(),
        }
    }
}

impl Wire for AnthropicWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        let _ = request;
        client.post(&self.url)
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(Unimplemented)
    }
}

struct Unimplemented;

impl WireDecoder for Unimplemented {
    fn event(
        &mut self,
        event: SseEvent<'_>,
        out: &mut VecDeque<StreamEvent>,
    ) -> Result<Flow, BackendError> {
        let _ = (event, out);
        Err(BackendError::Failed {
            message: "not implemented".into(),
        })
    }
}
