//! [`NativeClient`]: massgen's own MCP client over stdio child processes and streamable
//! HTTP — the handshake, tool listing across pages, tool calls and their results as text.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::config::{McpServerConfig, McpTransport};
use crate::mcp::client::last_output_note;
use crate::mcp::client::{CallResult, McpClient, McpError, RemoteTool, describe_binary};
use crate::mcp::client_http::HttpConnection;
use crate::mcp::client_stdio::StdioConnection;
use crate::mcp::jsonrpc;

/// A server that keeps handing out cursors is not followed past this many pages.
const MAX_TOOL_PAGES: usize = 1000;

/// Connects to the server `config` describes, as any [`McpClient`].
pub fn connect(
    config: McpServerConfig,
) -> BoxFuture<'static, Result<Arc<dyn McpClient>, McpError>> {
    Box::pin(async move {
        let client = NativeClient::connect(&config).await?;
        Ok(Arc::new(client) as Arc<dyn McpClient>)
    })
}

pub struct NativeClient {
    transport: Transport,
}

enum Transport {
    Stdio(StdioConnection),
    Http(HttpConnection),
}

impl Transport {
    async fn request(&self, method: &str, params: Value) -> Result<Value, McpError> {
        match self {
            Self::Stdio(stdio) => stdio.request(method, params).await,
            Self::Http(http) => http.request(method, params).await,
        }
    }

    async fn notify(&self, method: &str) -> Result<(), McpError> {
        match self {
            Self::Stdio(stdio) => stdio.notify(method).await,
            Self::Http(http) => http.notify(method).await,
        }
    }
}

impl NativeClient {
    /// Starts or reaches the server and completes the MCP handshake.
    pub async fn connect(config: &McpServerConfig) -> Result<Self, McpError> {
        let transport = match &config.transport {
            McpTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => Transport::Stdio(StdioConnection::spawn(
                &config.name,
                command,
                args,
                env,
                cwd.as_deref(),
            )?),
            McpTransport::StreamableHttp { url, headers } => {
                tracing::debug!(target: "massgen::mcp", server = %config.name, "connecting over streamable HTTP");
                Transport::Http(HttpConnection::new(url, headers)?)
            }
        };
        let client = Self { transport };
        client.initialize().await.map_err(starting_error)?;
        Ok(client)
    }

    /// A client over an already connected stdio stream (tests' scripted servers).
    #[cfg(test)]
    pub(crate) async fn over_stdio(connection: StdioConnection) -> Result<Self, McpError> {
        let client = Self {
            transport: Transport::Stdio(connection),
        };
        client.initialize().await.map_err(starting_error)?;
        Ok(client)
    }

    /// `initialize` (any revision the server answers with is accepted), then
    /// `notifications/initialized`.
    async fn initialize(&self) -> Result<(), McpError> {
        let result = self
            .transport
            .request("initialize", jsonrpc::initialize_params())
            .await?;
        let version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or(jsonrpc::PROTOCOL_VERSION);
        tracing::debug!(target: "massgen::mcp", version, "initialized");
        if let Transport::Http(http) = &self.transport {
            http.set_protocol_version(version);
        }
        self.transport.notify("notifications/initialized").await
    }
}

/// Any failure before the session is up reads as "could not connect".
fn starting_error(error: McpError) -> McpError {
    match error {
        McpError::Closed { last_output } => McpError::Connect(format!(
            "the server exited or hung up before it finished starting{}",
            last_output_note(&last_output)
        )),
        McpError::Protocol(message) => McpError::Connect(message),
        other => other,
    }
}

impl McpClient for NativeClient {
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<RemoteTool>, McpError>> {
        Box::pin(async move {
            let mut tools = Vec::new();
            let mut cursor: Option<String> = None;
            for _ in 0..MAX_TOOL_PAGES {
                let params = match &cursor {
                    Some(cursor) => json!({ "cursor": cursor }),
                    None => json!({}),
                };
                let page = self.transport.request("tools/list", params).await?;
                let listed = page.get("tools").and_then(Value::as_array);
                tools.extend(listed.into_iter().flatten().filter_map(remote_tool));
                match page.get("nextCursor").and_then(Value::as_str) {
                    Some(next) if !next.is_empty() && cursor.as_deref() != Some(next) => {
                        cursor = Some(next.to_owned());
                    }
                    _ => break,
                }
            }
            Ok(tools)
        })
    }

    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: serde_json::Map<String, Value>,
    ) -> BoxFuture<'a, Result<CallResult, McpError>> {
        Box::pin(async move {
            let params = json!({ "name": name, "arguments": arguments });
            let result = self.transport.request("tools/call", params).await?;
            Ok(CallResult {
                is_error: result
                    .get("isError")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                text: result_text(&result),
            })
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            match &self.transport {
                Transport::Stdio(stdio) => stdio.close().await,
                Transport::Http(http) => http.close().await,
            }
        })
    }
}

/// A listed tool; one without a name is left out.
fn remote_tool(tool: &Value) -> Option<RemoteTool> {
    let name = tool.get("name").and_then(Value::as_str)?;
    Some(RemoteTool {
        name: name.to_owned(),
        description: text_field(tool, "description").to_owned(),
        input_schema: tool
            .get("inputSchema")
            .filter(|schema| schema.is_object())
            .cloned()
            .unwrap_or_else(|| json!({ "type": "object" })),
    })
}

fn text_field<'a>(value: &'a Value, field: &str) -> &'a str {
    value.get(field).and_then(Value::as_str).unwrap_or_default()
}

/// Text blocks as they are; everything else described in one bracketed line.
fn result_text(result: &Value) -> String {
    let blocks = result.get("content").and_then(Value::as_array);
    let mut parts: Vec<String> = blocks.into_iter().flatten().map(block_text).collect();
    if parts.is_empty()
        && let Some(structured) = result.get("structuredContent").filter(|s| !s.is_null())
    {
        parts.push(structured.to_string());
    }
    parts.join("\n")
}

fn block_text(block: &Value) -> String {
    let binary = |mime: &str, data: &str| describe_binary(mime, text_field(block, data).len());
    match text_field(block, "type") {
        "text" => text_field(block, "text").to_owned(),
        "image" | "audio" => binary(text_field(block, "mimeType"), "data"),
        "resource" => {
            let resource = block.get("resource").unwrap_or(&Value::Null);
            if let Some(text) = resource.get("text").and_then(Value::as_str) {
                text.to_owned()
            } else if let Some(blob) = resource.get("blob").and_then(Value::as_str) {
                let mime = resource
                    .get("mimeType")
                    .and_then(Value::as_str)
                    .unwrap_or("application/octet-stream");
                let uri = text_field(resource, "uri");
                format!("{} {uri}", describe_binary(mime, blob.len()))
            } else {
                "[embedded resource]".into()
            }
        }
        "resource_link" => format!(
            "[resource {}: {}]",
            text_field(block, "name"),
            text_field(block, "uri")
        ),
        _ => "[content of a kind massgen does not read]".into(),
    }
}

#[cfg(test)]
#[path = "native_client_tests.rs"]
mod tests;
