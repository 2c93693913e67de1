//! The tool bridge: a loopback MCP server (streamable HTTP, JSON responses) through which an
//! agent CLI reaches massgen's tools for that agent. Only requests with the run's bearer
//! token are answered.

use std::io::Read as _;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::backend::ToolSpec;
use crate::backend::agent_cli::dialect::BridgeAddress;

/// MCP protocol revisions the bridge speaks; a client asking for another gets the newest.
const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/// What a tool call returns to the CLI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeReply {
    pub text: String,
    pub is_error: bool,
}

/// The tools behind the bridge.
pub trait BridgeTools: Send + Sync + 'static {
    fn tools(&self) -> Vec<ToolSpec>;
    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply>;
}

/// A running bridge; it stops when dropped.
pub struct BridgeServer {
    pub address: BridgeAddress,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for BridgeServer {
    fn drop(&mut self) {
        self.server.abort();
    }
}

#[derive(Clone)]
struct Shared {
    tools: Arc<dyn BridgeTools>,
    authorization: Arc<str>,
}

/// Starts a bridge on 127.0.0.1 at a free port, with a fresh token.
pub async fn serve(tools: Arc<dyn BridgeTools>) -> std::io::Result<BridgeServer> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let token = fresh_token()?;
    let shared = Shared {
        tools,
        authorization: format!("Bearer {token}").into(),
    };
    let app = axum::Router::new()
        .route("/mcp", axum::routing::any(handle))
        .with_state(shared);
    let server = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::warn!("the tool bridge stopped: {error}");
        }
    });
    Ok(BridgeServer {
        address: BridgeAddress {
            url: format!("http://127.0.0.1:{port}/mcp"),
            token,
        },
        server,
    })
}

/// 32 random bytes from the OS, as hex.
fn fresh_token() -> std::io::Result<String> {
    let mut bytes = [0_u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

async fn handle(
    State(shared): State<Shared>,
    method: axum::http::Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let authorized = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value == &*shared.authorization);
    if !authorized {
        return (StatusCode::UNAUTHORIZED, "missing or wrong bearer token").into_response();
    }
    match method {
        axum::http::Method::POST => {}
        axum::http::Method::DELETE => return StatusCode::OK.into_response(),
        _ => return StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        return json_response(error_reply(Value::Null, -32700, "the body is not JSON"));
    };
    let reply = match message {
        Value::Array(batch) => {
            let mut replies = Vec::new();
            for message in batch {
                if let Some(reply) = answer(&shared, message).await {
                    replies.push(reply);
                }
            }
            (!replies.is_empty()).then_some(Value::Array(replies))
        }
        message => answer(&shared, message).await,
    };
    match reply {
        Some(reply) => json_response(reply),
        None => StatusCode::ACCEPTED.into_response(),
    }
}

fn json_response(value: Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

/// The reply to one JSON-RPC message; none for a notification or a response.
async fn answer(shared: &Shared, message: Value) -> Option<Value> {
    let id = message.get("id").cloned()?;
    let method = message.get("method").and_then(Value::as_str)?;
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let result = match method {
        "initialize" => Ok(initialize(&params)),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": list(shared) })),
        "tools/call" => call(shared, params).await,
        "resources/list" => Ok(json!({ "resources": [] })),
        "resources/templates/list" => Ok(json!({ "resourceTemplates": [] })),
        "prompts/list" => Ok(json!({ "prompts": [] })),
        other => Err((-32601, format!("method `{other}` is not served"))),
    };
    Some(match result {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err((code, message)) => error_reply(id, code, &message),
    })
}

fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn initialize(params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked
        .filter(|asked| PROTOCOL_VERSIONS.contains(asked))
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": { "name": "massgen", "version": env!("CARGO_PKG_VERSION") },
    })
}

fn list(shared: &Shared) -> Vec<Value> {
    shared
        .tools
        .tools()
        .into_iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.parameters,
            })
        })
        .collect()
}

async fn call(shared: &Shared, params: Value) -> Result<Value, (i64, String)> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err((-32602, "tools/call needs a `name`".into()));
    };
    if !shared.tools.tools().iter().any(|tool| tool.name == name) {
        return Err((-32602, format!("no tool named `{name}`")));
    }
    let arguments = params
        .get("arguments")
        .cloned()
        .filter(|arguments| !arguments.is_null())
        .unwrap_or_else(|| json!({}));
    let reply = shared.tools.call(name.to_string(), arguments).await;
    Ok(json!({
        "content": [{ "type": "text", "text": reply.text }],
        "isError": reply.is_error,
    }))
}

#[cfg(test)]
mod tests;
