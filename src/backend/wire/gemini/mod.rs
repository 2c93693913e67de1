//! Gemini API `streamGenerateContent?alt=sse` (`type: gemini`): where the request goes and
//! how it authenticates. The body is built in `request`, the stream read in `decode`.

mod builtin_tools;
mod decode;
mod options;
mod request;
mod text_reply;
mod text_workflow;

use serde_json::Value;

pub use decode::GeminiDecoder;

use super::{Auth, WireOptions, sse_post};
use crate::backend::ChatRequest;
use crate::backend::http::{CallSite, Wire, WireDecoder};
use crate::config::Secret;

/// API versions a configured base URL may already end with.
const VERSIONS: [&str; 3] = ["/v1beta", "/v1", "/v1alpha"];

pub struct GeminiWire {
    site: CallSite,
    url: String,
    auth: Auth,
    options: WireOptions,
}

impl GeminiWire {
    /// `base_url` is the bare origin, as in Google's SDK
    /// (`https://generativelanguage.googleapis.com`); one that already ends in an API
    /// version is used as it is. The key goes in the `x-goog-api-key` header, never the URL.
    pub fn new(site: CallSite, base_url: &str, key: Option<Secret>, options: WireOptions) -> Self {
        Self {
            site,
            url: stream_url(base_url, &options.model),
            auth: key.map_or(Auth::None, |key| Auth::Header("x-goog-api-key", key)),
            options,
        }
    }

    /// The JSON body of one `streamGenerateContent` request.
    pub fn body(&self, request: &ChatRequest) -> Value {
        request::body(&self.options, request)
    }
}

/// `{base}/v1beta/models/{model}:streamGenerateContent?alt=sse`, without doubling a version
/// already in the base or a `models/` prefix already in the model name.
fn stream_url(base_url: &str, model: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let version = if VERSIONS.iter().any(|version| base.ends_with(version)) {
        ""
    } else {
        "/v1beta"
    };
    let model = model.trim_start_matches('/');
    let prefix = if model.starts_with("models/") || model.starts_with("tunedModels/") {
        ""
    } else {
        "models/"
    };
    format!("{base}{version}/{prefix}{model}:streamGenerateContent?alt=sse")
}

impl Wire for GeminiWire {
    fn site(&self) -> &CallSite {
        &self.site
    }

    fn api(&self) -> crate::config::provider_options::Api {
        crate::config::provider_options::Api::Gemini
    }

    fn request(&self, client: &reqwest::Client, request: &ChatRequest) -> reqwest::RequestBuilder {
        sse_post(client, &self.url, &self.auth, &self.body(request))
    }

    fn decoder(&self) -> Box<dyn WireDecoder> {
        Box::new(GeminiDecoder::new(self.site.clone()))
    }

    fn decoder_for(&self, request: &ChatRequest) -> Box<dyn WireDecoder> {
        let decoder = GeminiDecoder::new(self.site.clone());
        Box::new(
            match text_workflow::offered(request, self.options.server_tools) {
                Some(offered) => decoder.with_text_workflow(offered),
                None => decoder,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_adds_version_and_models_prefix_only_when_missing() {
        let expected = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
        for (base, model) in [
            (
                "https://generativelanguage.googleapis.com",
                "gemini-2.5-flash",
            ),
            (
                "https://generativelanguage.googleapis.com/",
                "gemini-2.5-flash",
            ),
            (
                "https://generativelanguage.googleapis.com/v1beta",
                "gemini-2.5-flash",
            ),
            (
                "https://generativelanguage.googleapis.com/v1beta/",
                "models/gemini-2.5-flash",
            ),
            (
                "https://generativelanguage.googleapis.com",
                "models/gemini-2.5-flash",
            ),
        ] {
            assert_eq!(stream_url(base, model), expected, "{base} {model}");
        }
        assert_eq!(
            stream_url("https://proxy.example/gemini/v1", "tunedModels/my-tune"),
            "https://proxy.example/gemini/v1/tunedModels/my-tune:streamGenerateContent?alt=sse"
        );
    }
}
