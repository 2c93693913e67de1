//! The resolution of one backend config into an [`Endpoint`]: base URL, API key and
//! whether the server is local, over the provider table (`config::providers`).

use std::net::IpAddr;

use crate::config::providers;
pub use crate::config::providers::{BaseUrl, Protocol, Provider};
use crate::config::{BackendConfig, BackendKind, Env, Secret};

/// Azure's `api-version` when neither the config's `api_version` nor
/// `AZURE_OPENAI_API_VERSION` gives one: MassGen's default.
pub const DEFAULT_AZURE_API_VERSION: &str = "2024-12-01-preview";

/// The provider behind a backend type, from its row in the provider table; `None` for
/// types that are not HTTP providers (`scripted`, the agent CLIs, `ag2`).
pub fn provider(kind: BackendKind) -> Option<Provider> {
    providers::row(kind).http
}

/// `chatcompletion` servers get their key variable from the host, as MassGen does.
fn key_vars_for_host(host: &str) -> &'static [&'static str] {
    providers::kind_at_host(host)
        .and_then(provider)
        .map_or(&[], |provider| provider.key_vars)
}

/// Everything needed to call one agent's provider.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    pub label: &'static str,
    pub protocol: Protocol,
    /// Without a trailing slash.
    pub base_url: String,
    pub api_key: Option<Secret>,
    /// How to fix a rejected key: "set OPENAI_API_KEY".
    pub key_fix: String,
    /// A server on the user's machine or network: no key needed, no cost.
    pub local: bool,
    /// Azure's `api-version`: the config's, else `AZURE_OPENAI_API_VERSION`, else
    /// [`DEFAULT_AZURE_API_VERSION`]. `None` for every other provider.
    pub api_version: Option<String>,
}

/// Why an endpoint cannot be built. The message names what to set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error(
        "backend `{kind}` needs an API key: set {vars} (in the environment or a .env file), or `api_key` in the config"
    )]
    MissingKey { kind: BackendKind, vars: String },
    #[error(
        "backend `{kind}` at {base_url} needs an API key: set `api_key` in the config (e.g. api_key: ${{MY_PROVIDER_API_KEY}})"
    )]
    MissingKeyUnknownHost { kind: BackendKind, base_url: String },
    #[error("backend `{kind}` needs `base_url`{hint}")]
    MissingBaseUrl {
        kind: BackendKind,
        hint: &'static str,
    },
    #[error(
        "the API key for backend `{kind}` contains spaces or control characters, which cannot go in an HTTP header: check the key"
    )]
    BadKey { kind: BackendKind },
    #[error("`base_url` `{base_url}` is not an http(s) URL")]
    BadBaseUrl { base_url: String },
    #[error("backend type `{kind}` is not an HTTP model provider")]
    NotHttp { kind: BackendKind },
}

impl EndpointError {
    /// Whether setting an environment variable fixes it (the config itself is fine).
    pub fn is_environment(&self) -> bool {
        match self {
            Self::MissingKey { .. } => true,
            Self::MissingBaseUrl { kind, .. } => *kind == BackendKind::AzureOpenai,
            Self::BadKey { .. } => true,
            Self::MissingKeyUnknownHost { .. } | Self::BadBaseUrl { .. } | Self::NotHttp { .. } => {
                false
            }
        }
    }
}

/// Resolves the provider, base URL and key of one backend config.
pub fn resolve(config: &BackendConfig, env: &Env) -> Result<Endpoint, EndpointError> {
    let kind = config.kind;
    let provider = provider(kind).ok_or(EndpointError::NotHttp { kind })?;
    let configured = config.base_url.clone().or_else(|| {
        (kind == BackendKind::AzureOpenai)
            .then(|| env.get("AZURE_OPENAI_ENDPOINT").map(str::to_string))
            .flatten()
    });
    let base_url = match (configured, provider.base_url) {
        (Some(url), _) => url,
        (None, BaseUrl::Default(url)) => url.to_string(),
        (None, BaseUrl::Required { hint }) => {
            return Err(EndpointError::MissingBaseUrl { kind, hint });
        }
    };
    let base_url = base_url.trim().trim_end_matches('/').to_string();
    let host = host_of(&base_url).ok_or_else(|| EndpointError::BadBaseUrl {
        base_url: base_url.clone(),
    })?;
    let key_vars = if kind == BackendKind::Chatcompletion {
        key_vars_for_host(host)
    } else {
        provider.key_vars
    };
    let local = is_local_host(host) || providers::row(kind).local;
    let api_key = config
        .api_key
        .as_ref()
        .map(|key| key.expose())
        .or_else(|| key_vars.iter().find_map(|var| env.get(var)))
        .map(str::trim)
        .filter(|key| !key.is_empty())
        .map(Secret::new);
    if api_key.is_none() && !local {
        return Err(if key_vars.is_empty() {
            EndpointError::MissingKeyUnknownHost {
                kind,
                base_url: base_url.clone(),
            }
        } else {
            EndpointError::MissingKey {
                kind,
                vars: key_vars.join(" or "),
            }
        });
    }
    if let Some(key) = &api_key
        && !key.expose().bytes().all(|byte| byte.is_ascii_graphic())
    {
        return Err(EndpointError::BadKey { kind });
    }
    let key_fix = if config.api_key.is_some() || key_vars.is_empty() {
        "check `api_key` in the config".to_string()
    } else {
        format!("set {}", key_vars.join(" or "))
    };
    Ok(Endpoint {
        label: provider.label,
        protocol: provider.protocol,
        base_url,
        api_key,
        key_fix,
        local,
        api_version: (kind == BackendKind::AzureOpenai).then(|| {
            config
                .api_version
                .clone()
                .or_else(|| env.get("AZURE_OPENAI_API_VERSION").map(str::to_string))
                .map(|version| version.trim().to_string())
                .filter(|version| !version.is_empty())
                .unwrap_or_else(|| DEFAULT_AZURE_API_VERSION.to_string())
        }),
    })
}

/// The host of an `http://` or `https://` URL, without port or brackets.
fn host_of(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    let host = if let Some(bracketed) = authority.strip_prefix('[') {
        bracketed.split(']').next()?
    } else {
        authority.split(':').next()?
    };
    (!host.is_empty()).then_some(host)
}

/// Loopback, private, link-local and `.local` addresses: servers on the user's machine or
/// network, which need no key.
pub fn is_local_host(host: &str) -> bool {
    let lower = host.to_ascii_lowercase();
    if lower == "localhost" || lower.ends_with(".localhost") || lower.ends_with(".local") {
        return true;
    }
    match lower.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(IpAddr::V6(ip)) => {
            let first = ip.segments()[0];
            ip.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests;
