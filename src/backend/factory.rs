//! Builds one backend per agent from the config: the scripted stand-in, or an HTTP
//! provider resolved through the provider table. Every agent's problem is reported at once,
//! before anything starts.

use std::sync::Arc;
use std::time::Duration;

use super::Backend;
use super::http::{CallSite, HttpBackend, RetryPolicy, StreamLimits, Wire};
use super::provider::{self, Endpoint, Protocol};
use super::redacting::RedactingBackend;
use super::scripted::ScriptedBackend;
use super::wire::anthropic::AnthropicWire;
use super::wire::gemini::GeminiWire;
use super::wire::openai_chat::ChatWire;
use super::wire::openai_responses::ResponsesWire;
use super::wire::{Auth, WireOptions};
use crate::config::{
    AgentConfig, BackendConfig, BackendKind, Config, Env, LimitsConfig, providers,
    providers::AgentProgram,
};
use crate::protocol::{AgentId, AnonymousMapping};

/// MassGen's HTTP read timeout: how long a response may stay silent.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// Why the agents' backends cannot be built; one line per agent with a problem (config
/// text in it shown escaped, so each stays one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", problems.iter().map(|(agent, problem)| format!("agent `{agent}`: {}", crate::sanitize::escape_for_terminal(problem))).collect::<Vec<_>>().join("\n"))]
pub struct BackendUnavailable {
    pub problems: Vec<(AgentId, String)>,
}

/// One backend per agent, in config order, each keeping the run's secrets out of what it
/// streams.
pub fn build_backends(
    config: &Config,
    env: &Env,
) -> Result<Vec<Arc<dyn Backend>>, BackendUnavailable> {
    let mapping = AnonymousMapping::new(config.agents.iter().map(|agent| &agent.id));
    let client = http_client();
    let redactor = super::secrets::redactor_for(config, env);
    let mut backends = Vec::new();
    let mut problems = Vec::new();
    for agent in &config.agents {
        match build_one(agent, env, &mapping, &client, &config.limits) {
            Ok(backend) => backends.push(RedactingBackend::wrap(backend, &redactor)),
            Err(problem) => problems.push((agent.id.clone(), problem)),
        }
    }
    if problems.is_empty() {
        Ok(backends)
    } else {
        Err(BackendUnavailable { problems })
    }
}

fn build_one(
    agent: &AgentConfig,
    env: &Env,
    mapping: &AnonymousMapping,
    client: &Result<reqwest::Client, String>,
    limits: &LimitsConfig,
) -> Result<Arc<dyn Backend>, String> {
    let backend = &agent.backend;
    if let (BackendKind::Scripted, Some(options)) = (backend.kind, &backend.scripted) {
        return Ok(Arc::new(ScriptedBackend::new(
            backend.model.clone(),
            options.clone(),
            mapping.anon(&agent.id).cloned(),
            mapping.clone(),
        )));
    }
    match providers::row(backend.kind).agent {
        AgentProgram::None => {}
        AgentProgram::Cli => {
            return super::agent_cli::build::build(agent, env)
                .map(|backend| Arc::new(backend) as Arc<dyn Backend>);
        }
        AgentProgram::Refused(reason) => {
            return Err(format!(
                "backend type `{}` is not supported by massgen ({reason})",
                backend.kind
            ));
        }
    }
    let endpoint = provider::resolve(backend, env).map_err(|error| error.to_string())?;
    let client = client.clone()?;
    Ok(http_backend_limited(backend, &endpoint, client, limits))
}

/// The HTTP backend for a resolved endpoint, with the default `limits:`.
pub fn http_backend(
    config: &BackendConfig,
    endpoint: &Endpoint,
    client: reqwest::Client,
) -> Arc<dyn Backend> {
    http_backend_limited(config, endpoint, client, &LimitsConfig::default())
}

/// The HTTP backend for a resolved endpoint, enforcing `limits` on every response.
pub fn http_backend_limited(
    config: &BackendConfig,
    endpoint: &Endpoint,
    client: reqwest::Client,
    limits: &LimitsConfig,
) -> Arc<dyn Backend> {
    let site = CallSite::new(
        endpoint.label.to_string(),
        config.model.clone(),
        endpoint.key_fix.clone(),
    );
    let options = WireOptions {
        model: config.model.clone(),
        temperature: config.temperature,
        max_tokens: config.max_tokens,
        passthrough: config.passthrough.clone(),
        extra_body: config.extra_body.clone(),
        betas: config.betas.clone(),
        server_tools: config.server_tools,
        include_tool_results: config.kind != BackendKind::Grok,
        organization: config.organization.clone(),
        search_options: config.search_options.clone(),
        strict_tools: config.tools.strict_tools.clone(),
    };
    let key = endpoint.api_key.clone();
    let base = endpoint.base_url.as_str();
    let wire: Arc<dyn Wire> = match wire_protocol(config, endpoint) {
        Protocol::OpenaiChat => Arc::new(ChatWire::new(
            site,
            base,
            key.map_or(Auth::None, Auth::Bearer),
            options,
        )),
        Protocol::AzureChat => Arc::new(ChatWire::azure(
            site,
            base,
            key,
            endpoint
                .api_version
                .as_deref()
                .unwrap_or(provider::DEFAULT_AZURE_API_VERSION),
            options,
        )),
        Protocol::OpenaiResponses => Arc::new(ResponsesWire::new(site, base, key, options)),
        Protocol::Anthropic => Arc::new(AnthropicWire::new(site, base, key, options)),
        Protocol::Gemini => Arc::new(GeminiWire::new(site, base, key, options)),
    };
    let policy = RetryPolicy {
        max_retries: config
            .max_retries
            .unwrap_or(RetryPolicy::default().max_retries),
        ..RetryPolicy::default()
    };
    Arc::new(
        HttpBackend::new(
            config.kind,
            endpoint.label,
            config.model.clone(),
            wire,
            client,
            policy,
            config.timeout.unwrap_or(DEFAULT_IDLE_TIMEOUT),
        )
        .redacting(endpoint.api_key.clone())
        .local(endpoint.local)
        .limited(StreamLimits::from(limits)),
    )
}

/// The protocol to speak: the provider's, except that xAI's web search and code execution
/// exist only in its Responses API (as in MassGen 0.1.97, whose Grok backend speaks it).
fn wire_protocol(config: &BackendConfig, endpoint: &Endpoint) -> Protocol {
    if config.kind == BackendKind::Grok && config.server_tools.any() {
        Protocol::OpenaiResponses
    } else {
        endpoint.protocol
    }
}

/// One connection pool for every agent of a run. It follows no redirect: a provider's
/// 3xx would otherwise carry the API key headers to whatever host it names.
/// Every HTTP client massgen builds starts here: the TLS provider installed (reqwest
/// panics without one), redirects never followed (keys stay with the host they were
/// meant for), massgen's user agent.
pub fn client_builder() -> reqwest::ClientBuilder {
    super::tls::ensure_crypto_provider();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("massgen-rs/", env!("CARGO_PKG_VERSION")))
}

pub fn http_client() -> Result<reqwest::Client, String> {
    client_builder()
        .connect_timeout(Duration::from_secs(30))
        .build()
        .map_err(|error| format!("cannot set up HTTPS: {error}"))
}
