//! A provider's model list (`GET /v1/models` and its Anthropic and Gemini forms), for the
//! agents view's model choice. A provider without a list, or one that cannot be reached,
//! gives a typed error: the user then types the model's name.

use std::time::Duration;

use serde_json::Value;

use super::provider::{self, Protocol};
use crate::config::{BackendConfig, BackendKind, Env};

/// How long a listing may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);
/// Listed models kept at most (OpenRouter lists hundreds).
const MAX_MODELS: usize = 500;

/// Why no list came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelListError {
    /// The backend type has no model list (`scripted`, Azure deployments, …).
    #[error("{0} has no model list")]
    NoList(String),
    /// The endpoint cannot be built (no key, no base URL).
    #[error("{0}")]
    Endpoint(String),
    #[error("{url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("{url} answered HTTP {status}")]
    Status { url: String, status: u16 },
    #[error("{url} sent no model list")]
    Unreadable { url: String },
}

/// The models `kind` serves at `base_url` (its default when `None`), sorted, with the key
/// from `env`.
pub async fn list_models(
    kind: BackendKind,
    base_url: Option<&str>,
    env: &Env,
) -> Result<Vec<String>, ModelListError> {
    let Some(provider) = provider::provider(kind) else {
        return Err(ModelListError::NoList(format!("backend `{kind}`")));
    };
    let config = BackendConfig {
        base_url: base_url.map(str::to_string),
        ..BackendConfig::new(kind, "")
    };
    let endpoint = provider::resolve(&config, env)
        .map_err(|error| ModelListError::Endpoint(error.to_string()))?;
    let key = endpoint
        .api_key
        .as_ref()
        .map(|key| key.expose().to_string());
    let base = endpoint.base_url.as_str();
    let client = super::factory::client_builder()
        .timeout(LIST_TIMEOUT)
        .build()
        .map_err(|error| ModelListError::Unreachable {
            url: base.to_string(),
            reason: error.to_string(),
        })?;
    let (url, request, list, field) = match provider.protocol {
        Protocol::OpenaiChat | Protocol::OpenaiResponses => {
            let url = format!("{base}/models");
            let mut request = client.get(&url);
            if let Some(key) = &key {
                request = request.bearer_auth(key);
            }
            (url, request, "data", "id")
        }
        Protocol::Anthropic => {
            let version = if base.ends_with("/v1") { "" } else { "/v1" };
            let url = format!("{base}{version}/models?limit=1000");
            let request = client
                .get(&url)
                .header("x-api-key", key.unwrap_or_default())
                .header("anthropic-version", "2023-06-01");
            (url, request, "data", "id")
        }
        Protocol::Gemini => {
            let versioned = ["/v1beta", "/v1", "/v1alpha"]
                .iter()
                .any(|v| base.ends_with(v));
            let version = if versioned { "" } else { "/v1beta" };
            let url = format!("{base}{version}/models?pageSize=1000");
            let request = client
                .get(&url)
                .header("x-goog-api-key", key.unwrap_or_default());
            (url, request, "models", "name")
        }
        Protocol::AzureChat => {
            return Err(ModelListError::NoList(format!(
                "{} (deployments are named in the Azure portal)",
                provider.label
            )));
        }
    };
    let response = request
        .send()
        .await
        .map_err(|error| ModelListError::Unreachable {
            url: url.clone(),
            reason: error.without_url().to_string(),
        })?;
    let status = response.status();
    if !status.is_success() {
        return Err(ModelListError::Status {
            url,
            status: status.as_u16(),
        });
    }
    let body: Value = response
        .json()
        .await
        .map_err(|_| ModelListError::Unreadable { url: url.clone() })?;
    let Some(entries) = body[list].as_array() else {
        return Err(ModelListError::Unreadable { url });
    };
    let mut models: Vec<String> = entries
        .iter()
        .filter_map(|entry| entry[field].as_str())
        .map(|name| {
            name.strip_prefix("models/")
                .unwrap_or(name)
                .trim()
                .to_string()
        })
        .filter(|name| !name.is_empty())
        .take(MAX_MODELS)
        .collect();
    models.sort();
    models.dedup();
    Ok(models)
}
