//! OpenAI Responses API (`type: openai`): `POST {base}/responses` with `stream: true`, read as
//! typed events (`response.output_text.delta`, `response.function_call_arguments.delta`,
//! reasoning summaries, `response.completed` with usage), plus a whole JSON reply as a
//! fallback. The request body lives in `request`, the event reader in `decode`.

mod decode;
mod request;
mod server_tools;

pub use decode::ResponsesDecoder;

use super::{Auth, WireOptions, sse_post};
use crate::backend::ChatRequest;
use crate::backend::http::{CallSite, Misroute, Wire, WireDecoder};
use crate::config::Secret;

pub struct ResponsesWire {
    site: CallSite,
    url: String,
    auth: Auth,
    options: WireOptions,
    /// Set when the base names no API version (see [`Misroute`]).
    misroute: Option<Misroute>,
}

impl ResponsesWire {
    /// The Responses API at `{base_url}/responses` (the base ends in `/v1`), with a bearer
    /// key, or no `Authorization` header at all when there is no key (a local server).
    pub fn new(site: CallSite, base_url: &str, key: Option<Secret>, options: WireOptions) -> Self {
        let url = format!("{base_url}/responses");
        Self {
            site,
            misroute: Misroute::for_base(base_url, &url),
            url,
            auth: key.map_or(Auth::None, Auth::Bearer),
            options,
        }
    }

    /// The JSON body for one call.
    pub fn body(&self, request: &ChatRequest) -> serde_json::Value {
        request::body(&self.options, request)
    }
}

impl Wire for ResponsesWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn api(&self) -> crate::config::provider_options::Api {
        crate::config::provider_options::Api::Responses
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        self.options.organization_header(sse_post(
            client,
            &self.url,
            &self.auth,
            &self.body(request),
        ))
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(ResponsesDecoder::new(self.site.clone()))
    }

    fn misroute(&self) -> Option<&Misroute> {
        self.misroute.as_ref()
    }
}
