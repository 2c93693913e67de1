//! [`McpClient`] over the official Rust SDK (rmcp): stdio child processes and
//! streamable HTTP. The only file that names rmcp.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, ResourceContents,
};
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{Peer, RoleClient, ServiceError, ServiceExt};

use super::client::{
    CallResult, McpClient, McpError, RemoteTool, describe_binary, last_output_note,
};
use crate::config::{McpServerConfig, McpTransport, Secret};
use crate::stderr_tail::StderrTail;

/// Variables a stdio server gets from massgen's environment (the MCP SDKs' defaults, plus
/// what Node and Python need to find their installs).
const INHERITED_ENV: [&str; 10] = [
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "USER",
    "LANG",
    "TMPDIR",
    "NODE_PATH",
    "VIRTUAL_ENV",
];

/// How long to let the server finish its session before it is stopped.
const CLOSE_GRACE: Duration = Duration::from_secs(5);
/// Lines of a server's stderr kept to explain why it stopped.
const STDERR_LINES: usize = 5;

/// Connects to the server `config` describes, as any [`McpClient`].
pub fn connect(
    config: McpServerConfig,
) -> BoxFuture<'static, Result<Arc<dyn McpClient>, McpError>> {
    Box::pin(async move {
        let client = RmcpClient::connect(&config).await?;
        Ok(Arc::new(client) as Arc<dyn McpClient>)
    })
}

pub struct RmcpClient {
    peer: Peer<RoleClient>,
    service: tokio::sync::Mutex<Option<RunningService<RoleClient, ClientConfig>>>,
    /// `None` for HTTP servers.
    stderr: Option<StderrTail>,
}

impl RmcpClient {
    pub async fn connect(config: &McpServerConfig) -> Result<Self, McpError> {
        match &config.transport {
            McpTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => Self::spawn(&config.name, command, args, env, cwd.as_deref()).await,
            McpTransport::StreamableHttp { url, headers } => {
                Self::connect_http(&config.name, url, headers).await
            }
        }
    }

    async fn spawn(
        server: &str,
        command: &str,
        args: &[String],
        env: &[(String, Secret)],
        cwd: Option<&std::path::Path>,
    ) -> Result<Self, McpError> {
        let spawn_error = |reason: String| McpError::Spawn {
            command: command.to_owned(),
            reason,
        };
        let mut cmd = tokio::process::Command::new(command);
        // As the MCP SDKs do: a few basics from our environment, then the server's own
        // `env`; never the API keys massgen itself holds.
        cmd.env_clear()
            .envs(
                INHERITED_ENV
                    .iter()
                    .filter_map(|name| std::env::var_os(name).map(|value| (*name, value))),
            )
            .args(args)
            .envs(env.iter().map(|(name, value)| (name, value.expose())))
            .kill_on_drop(true);
        if let Some(cwd) = cwd {
            if !cwd.is_dir() {
                return Err(spawn_error(format!(
                    "its working directory `{}` does not exist",
                    cwd.display()
                )));
            }
            cmd.current_dir(cwd);
        }
        let (transport, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| spawn_error(describe_spawn_error(&error)))?;
        let tail = StderrTail::new(STDERR_LINES);
        if let Some(stderr) = stderr {
            let server = server.to_owned();
            tokio::spawn(tail.clone().drain(stderr, move |line| {
                tracing::debug!(target: "massgen::mcp", server = %server, "{line}");
            }));
        }
        match client_config().serve(transport).await {
            Ok(service) => Ok(Self::new(service, Some(tail))),
            Err(error) => {
                let last_output = tail.last_line_after_exit().await;
                Err(McpError::Connect(format!(
                    "{}{}",
                    describe_init_error(&error),
                    last_output_note(&last_output)
                )))
            }
        }
    }

    async fn connect_http(
        server: &str,
        url: &str,
        headers: &[(String, Secret)],
    ) -> Result<Self, McpError> {
        let mut custom = HashMap::new();
        for (name, value) in headers {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                McpError::Connect(format!("`{name}` is not a valid HTTP header name"))
            })?;
            let mut value = HeaderValue::from_str(value.expose()).map_err(|_| {
                McpError::Connect(format!("the value of header `{name}` is not valid in HTTP"))
            })?;
            value.set_sensitive(true);
            custom.insert(header, value);
        }
        crate::backend::tls::ensure_crypto_provider();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom),
        );
        tracing::debug!(target: "massgen::mcp", server, "connecting over streamable HTTP");
        let service = client_config()
            .serve(transport)
            .await
            .map_err(|error| McpError::Connect(describe_init_error(&error)))?;
        Ok(Self::new(service, None))
    }

    fn new(service: RunningService<RoleClient, ClientConfig>, stderr: Option<StderrTail>) -> Self {
        Self {
            peer: service.peer().clone(),
            service: tokio::sync::Mutex::new(Some(service)),
            stderr,
        }
    }

    async fn error(&self, error: ServiceError) -> McpError {
        match error {
            ServiceError::McpError(data) => McpError::Protocol(data.message.into_owned()),
            ServiceError::Timeout { timeout } => McpError::Timeout(timeout),
            ServiceError::TransportClosed => self.closed().await,
            ServiceError::TransportSend(send) => match &self.stderr {
                Some(_) => self.closed().await,
                None => McpError::Connect(error_chain(&send)),
            },
            other => McpError::Protocol(other.to_string()),
        }
    }

    async fn closed(&self) -> McpError {
        let last_output = match &self.stderr {
            Some(tail) => tail.last_line_after_exit().await,
            None => None,
        };
        McpError::Closed { last_output }
    }
}

impl McpClient for RmcpClient {
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<RemoteTool>, McpError>> {
        Box::pin(async move {
            let tools = match self.peer.list_all_tools().await {
                Ok(tools) => tools,
                Err(error) => return Err(self.error(error).await),
            };
            Ok(tools
                .into_iter()
                .map(|tool| RemoteTool {
                    name: tool.name.into_owned(),
                    description: tool.description.map(|d| d.into_owned()).unwrap_or_default(),
                    input_schema: serde_json::Value::Object((*tool.input_schema).clone()),
                })
                .collect())
        })
    }

    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> BoxFuture<'a, Result<CallResult, McpError>> {
        Box::pin(async move {
            let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
            match self.peer.call_tool(params).await {
                Ok(result) => Ok(CallResult {
                    is_error: result.is_error.unwrap_or(false),
                    text: result_text(&result),
                }),
                Err(error) => Err(self.error(error).await),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let service = self.service.lock().await.take();
            if let Some(mut service) = service
                && let Err(error) = service.close_with_timeout(CLOSE_GRACE).await
            {
                tracing::debug!(target: "massgen::mcp", %error, "closing the session failed");
            }
        })
    }
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("massgen", env!("CARGO_PKG_VERSION")),
    )
}

fn describe_spawn_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            "no such program (check `command` in the config and that it is installed)".into()
        }
        std::io::ErrorKind::PermissionDenied => "permission denied (is it executable?)".into(),
        _ => error.to_string(),
    }
}

fn describe_init_error(error: &ClientInitializeError) -> String {
    match error {
        ClientInitializeError::ConnectionClosed(_) => {
            "the server exited or hung up before it finished starting".into()
        }
        ClientInitializeError::TransportError { error, .. } => error_chain(error),
        other => other.to_string(),
    }
}

/// An error and its causes, `outer: inner: root`, leaving out wrappers that only repeat
/// their cause's text.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(error);
    while let Some(current) = next {
        parts.push(current.to_string());
        next = current.source();
    }
    let kept: Vec<&str> = parts
        .iter()
        .enumerate()
        .filter(|(index, part)| {
            parts
                .get(index + 1)
                .is_none_or(|cause| !part.contains(cause.as_str()))
        })
        .map(|(_, part)| part.as_str())
        .collect();
    kept.join(": ")
}

/// Text blocks as they are; everything else described in one bracketed line.
fn result_text(result: &CallToolResult) -> String {
    let mut parts: Vec<String> = result.content.iter().map(block_text).collect();
    if parts.is_empty()
        && let Some(structured) = &result.structured_content
    {
        parts.push(structured.to_string());
    }
    parts.join("\n")
}

fn block_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text(text) => text.text.clone(),
        ContentBlock::Image(image) => describe_binary(&image.mime_type, image.data.len()),
        ContentBlock::Audio(audio) => describe_binary(&audio.mime_type, audio.data.len()),
        ContentBlock::Resource(embedded) => match &embedded.resource {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => {
                let mime = mime_type.as_deref().unwrap_or("application/octet-stream");
                format!("{} {uri}", describe_binary(mime, blob.len()))
            }
            _ => "[embedded resource]".into(),
        },
        ContentBlock::ResourceLink(link) => format!("[resource {}: {}]", link.name, link.uri),
        _ => "[content of a kind massgen does not read]".into(),
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::Resource;

    use super::*;

    #[test]
    fn text_blocks_are_joined_and_others_described() {
        let result = CallToolResult::success(vec![
            ContentBlock::text("first"),
            ContentBlock::image("A".repeat(1600), "image/png"),
            ContentBlock::ResourceLink(Resource::new("file:///a.txt", "a.txt")),
            ContentBlock::text("last"),
        ]);
        assert_eq!(
            result_text(&result),
            "first\n[image/png, 2 KB]\n[resource a.txt: file:///a.txt]\nlast"
        );
    }

    #[test]
    fn structured_content_stands_in_when_there_are_no_blocks() {
        let mut result = CallToolResult::structured(serde_json::json!({"sum": 5}));
        result.content.clear();
        assert_eq!(result_text(&result), r#"{"sum":5}"#);
    }

    #[test]
    fn error_chains_skip_wrappers_that_repeat_their_cause() {
        #[derive(Debug, thiserror::Error)]
        #[error("outer: {0}")]
        struct Outer(#[source] Inner);
        #[derive(Debug, thiserror::Error)]
        #[error("connection refused")]
        struct Inner;
        assert_eq!(error_chain(&Outer(Inner)), "connection refused");
    }
}
