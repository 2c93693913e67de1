//! The bridge against the client massgen uses for MCP servers, and raw requests.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::{BridgeReply, BridgeTools, serve};
use crate::backend::ToolSpec;
use crate::config::{McpServerConfig, McpTransport, Secret};
use crate::mcp::{McpClient, NativeClient};

struct Echo;

impl BridgeTools for Echo {
    fn tools(&self) -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: "vote".into(),
            description: "Vote for an answer.".into(),
            parameters: json!({"type": "object", "properties": {"agent_id": {"type": "string"}}}),
        }]
    }

    fn call(&self, name: String, arguments: Value) -> BoxFuture<'static, BridgeReply> {
        Box::pin(async move {
            BridgeReply {
                text: format!("{name} {arguments}"),
                is_error: arguments.get("agent_id").is_none(),
            }
        })
    }
}

fn config(url: &str, token: &str) -> McpServerConfig {
    McpServerConfig {
        name: "massgen".into(),
        transport: McpTransport::StreamableHttp {
            url: url.into(),
            headers: vec![(
                "Authorization".into(),
                Secret::new(format!("Bearer {token}")),
            )],
        },
        connect_timeout: Duration::from_secs(10),
        call_timeout: Duration::from_secs(10),
        allowed_tools: None,
        exclude_tools: Vec::new(),
    }
}

#[tokio::test]
async fn an_mcp_client_with_the_token_lists_and_calls_the_tools() {
    let bridge = serve(Arc::new(Echo)).await.unwrap();
    let client = NativeClient::connect(&config(&bridge.address.url, &bridge.address.token))
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "vote");
    let mut arguments = serde_json::Map::new();
    arguments.insert("agent_id".into(), json!("agent1"));
    let result = client.call_tool("vote", arguments).await.unwrap();
    assert_eq!(result.text, r#"vote {"agent_id":"agent1"}"#);
    assert!(!result.is_error);
    let failed = client
        .call_tool("vote", serde_json::Map::new())
        .await
        .unwrap();
    assert!(failed.is_error);
}

#[tokio::test]
async fn a_request_without_the_token_is_refused() {
    let bridge = serve(Arc::new(Echo)).await.unwrap();
    let client = crate::backend::http_client().unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let refused = client
        .post(&bridge.address.url)
        .bearer_auth("not-the-token")
        .json(&list)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let anonymous = client
        .post(&bridge.address.url)
        .json(&list)
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    assert!(
        NativeClient::connect(&config(&bridge.address.url, "wrong"))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn unknown_tools_and_methods_are_json_rpc_errors() {
    let bridge = serve(Arc::new(Echo)).await.unwrap();
    let client = crate::backend::http_client().unwrap();
    let ask = |body: Value| {
        client
            .post(&bridge.address.url)
            .bearer_auth(&bridge.address.token)
            .json(&body)
            .send()
    };
    let reply: Value = ask(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "rm_rf", "arguments": {}}}))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(reply["id"], 7);
    assert_eq!(reply["error"]["code"], -32602);
    let reply: Value = ask(json!({"jsonrpc": "2.0", "id": "x", "method": "sampling/create"}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(reply["error"]["code"], -32601);
    let notification = ask(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await
        .unwrap();
    assert_eq!(notification.status(), 202);
}

#[tokio::test]
async fn tokens_differ_between_bridges() {
    let first = serve(Arc::new(Echo)).await.unwrap();
    let second = serve(Arc::new(Echo)).await.unwrap();
    assert_ne!(first.address.token, second.address.token);
    assert_eq!(first.address.token.len(), 64);
}
