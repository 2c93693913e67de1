//! Anthropic Messages API (`type: claude`): `POST {base}/v1/messages` with `stream: true`,
//! the `x-api-key` and `anthropic-version` headers; request building in `request`, the
//! event stream (text, thinking, tool use, usage, errors) in `decode`.

mod decode;
mod request;
mod server_tools;
mod strict;

pub use decode::AnthropicDecoder;

use super::{Auth, WireOptions, sse_post};
use crate::backend::ChatRequest;
use crate::backend::http::{CallSite, Wire, WireDecoder};
use crate::config::Secret;

/// The API version every request declares.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

pub struct AnthropicWire {
    site: CallSite,
    url: String,
    auth: Auth,
    options: WireOptions,
}

impl AnthropicWire {
    /// The Messages API under `base_url`, the bare origin as Anthropic's SDKs take it
    /// (`https://api.anthropic.com`); a base that already ends in `/v1` is not doubled.
    pub fn new(site: CallSite, base_url: &str, key: Option<Secret>, options: WireOptions) -> Self {
        Self {
            site,
            url: messages_url(base_url),
            auth: key.map_or(Auth::None, |key| Auth::Header("x-api-key", key)),
            options,
        }
    }

    /// The JSON body for one call.
    pub fn body(&self, request: &ChatRequest) -> serde_json::Value {
        request::body(&self.options, request)
    }
}

impl AnthropicWire {
    /// The `anthropic-beta` header: the config's `betas` (well-formed names only), the
    /// server tools' beta and strict tools', each once, comma-joined.
    fn beta_header(&self) -> Option<String> {
        let mut betas: Vec<&str> = Vec::new();
        let configured = self
            .options
            .betas
            .iter()
            .map(|beta| beta.trim())
            .filter(|beta| !beta.is_empty() && beta.bytes().all(|byte| byte.is_ascii_graphic()));
        let strict = strict::on(&self.options).then_some(strict::BETA);
        for beta in configured
            .chain(server_tools::beta(self.options.server_tools))
            .chain(strict)
        {
            if !betas.contains(&beta) {
                betas.push(beta);
            }
        }
        (!betas.is_empty()).then(|| betas.join(","))
    }
}

fn messages_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with("/v1") {
        format!("{base}/messages")
    } else {
        format!("{base}/v1/messages")
    }
}

impl Wire for AnthropicWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn api(&self) -> crate::config::provider_options::Api {
        crate::config::provider_options::Api::Anthropic
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        let builder = sse_post(client, &self.url, &self.auth, &self.body(request))
            .header("anthropic-version", ANTHROPIC_VERSION);
        match self.beta_header() {
            Some(betas) => builder.header("anthropic-beta", betas),
            None => builder,
        }
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(AnthropicDecoder::new(self.site.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_v1_segment_is_added_once() {
        assert_eq!(
            messages_url("https://api.anthropic.com"),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            messages_url("https://proxy.example.com/anthropic/v1/"),
            "https://proxy.example.com/anthropic/v1/messages"
        );
    }
}
