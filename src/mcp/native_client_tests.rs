//! The client against scripted servers on in-memory pipes: handshake, pages, results.

use std::sync::Mutex;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::*;
use crate::mcp::client_stdio::MAX_LINE;

type Answer = fn(&str, &Value) -> Option<Value>;

/// A server answering each request with `answer(method, params)` as its result, or
/// hanging up when that is `None`; every message it heard is kept.
fn scripted(answer: Answer) -> (StdioConnection, Arc<Mutex<Vec<Value>>>) {
    let (client_in, mut says) = tokio::io::duplex(1 << 16);
    let (client_out, heard) = tokio::io::duplex(1 << 16);
    let log = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&log);
    tokio::spawn(async move {
        let mut lines = BufReader::new(heard).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            kept.lock().unwrap().push(message.clone());
            let Some(id) = message.get("id") else {
                continue;
            };
            let method = message["method"].as_str().unwrap_or_default();
            let Some(result) = answer(method, &message["params"]) else {
                return;
            };
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            says.write_all(format!("{reply}\n").as_bytes())
                .await
                .unwrap();
        }
    });
    (StdioConnection::over(client_in, client_out, MAX_LINE), log)
}

fn paged(method: &str, params: &Value) -> Option<Value> {
    let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
    Some(match (method, params["cursor"].as_str()) {
        ("initialize", _) => json!({"protocolVersion": "2024-11-05", "capabilities": {}}),
        ("tools/list", None) => json!({"tools": [tool("a"), tool("b")], "nextCursor": "p2"}),
        ("tools/list", Some("p2")) => {
            json!({"tools": [tool("c"), {"description": "no name"}], "nextCursor": "p3"})
        }
        ("tools/list", _) => json!({"tools": [{"name": "d", "description": "last"}]}),
        ("tools/call", _) => json!({
            "content": [{"type": "text", "text": format!("called {}", params["name"])}],
            "isError": params["arguments"]["fail"] == true,
        }),
        _ => json!({}),
    })
}

#[tokio::test]
async fn the_handshake_names_massgen_and_accepts_an_older_revision() {
    let (connection, log) = scripted(paged);
    let client = NativeClient::over_stdio(connection).await.unwrap();
    client.list_tools().await.unwrap();
    let log = log.lock().unwrap();
    assert_eq!(log[0]["method"], "initialize");
    assert_eq!(log[0]["params"]["protocolVersion"], "2025-06-18");
    assert_eq!(log[0]["params"]["clientInfo"]["name"], "massgen");
    assert_eq!(log[0]["params"]["capabilities"], json!({}));
    assert_eq!(
        log[1],
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
}

#[tokio::test]
async fn tools_are_listed_across_every_page() {
    let (connection, log) = scripted(paged);
    let client = NativeClient::over_stdio(connection).await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    assert_eq!(tools[3].description, "last");
    assert_eq!(tools[3].input_schema, json!({"type": "object"}));
    let cursors: Vec<Value> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|message| message["method"] == "tools/list")
        .map(|message| message["params"]["cursor"].clone())
        .collect();
    assert_eq!(cursors, [Value::Null, json!("p2"), json!("p3")]);
}

#[tokio::test]
async fn calls_send_name_and_arguments_and_read_is_error() {
    let (connection, _) = scripted(paged);
    let client = NativeClient::over_stdio(connection).await.unwrap();
    let mut arguments = serde_json::Map::new();
    let ok = client.call_tool("echo", arguments.clone()).await.unwrap();
    assert_eq!((ok.is_error, ok.text.as_str()), (false, r#"called "echo""#));
    arguments.insert("fail".into(), json!(true));
    let failed = client.call_tool("echo", arguments).await.unwrap();
    assert!(failed.is_error);
    client.close().await;
    assert!(matches!(
        client.list_tools().await,
        Err(McpError::Closed { .. })
    ));
}

#[tokio::test]
async fn a_server_that_hangs_up_while_starting_could_not_connect() {
    let (connection, _) = scripted(|_, _| None);
    let error = NativeClient::over_stdio(connection).await.err().unwrap();
    assert_eq!(
        error,
        McpError::Connect("the server exited or hung up before it finished starting".into())
    );
}

#[test]
fn text_blocks_are_joined_and_others_described() {
    let result = json!({"content": [
        {"type": "text", "text": "first"},
        {"type": "image", "data": "A".repeat(1600), "mimeType": "image/png"},
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"},
        {"type": "resource", "resource": {"uri": "file:///b", "blob": "AAAA"}},
        {"type": "resource", "resource": {"uri": "file:///c", "text": "inline"}},
        {"type": "hologram"},
        {"type": "text", "text": "last"},
    ]});
    assert_eq!(
        result_text(&result),
        "first\n[image/png, 2 KB]\n[resource a.txt: file:///a.txt]\n\
         [application/octet-stream, 3 B] file:///b\ninline\n\
         [content of a kind massgen does not read]\nlast"
    );
}

#[test]
fn structured_content_stands_in_when_there_are_no_blocks() {
    let result = json!({"content": [], "structuredContent": {"sum": 5}});
    assert_eq!(result_text(&result), r#"{"sum":5}"#);
}
