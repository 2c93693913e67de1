//! The stdio transport against a scripted server on in-memory pipes.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

use super::*;

/// The server's ends of the pipes: what the client wrote, and where to answer.
struct Server {
    heard: Lines<BufReader<DuplexStream>>,
    says: DuplexStream,
}

impl Server {
    async fn next(&mut self) -> Value {
        let line = self.heard.next_line().await.unwrap().unwrap();
        serde_json::from_str(&line).unwrap()
    }

    async fn say(&mut self, message: &str) {
        self.says.write_all(message.as_bytes()).await.unwrap();
        self.says.write_all(b"\n").await.unwrap();
    }
}

fn connected(max_line: usize) -> (StdioConnection, Server) {
    let (client_in, says) = tokio::io::duplex(1 << 16);
    let (client_out, heard) = tokio::io::duplex(1 << 16);
    let connection = StdioConnection::over(client_in, client_out, max_line);
    let server = Server {
        heard: BufReader::new(heard).lines(),
        says,
    };
    (connection, server)
}

#[tokio::test]
async fn a_request_sent_as_one_line_gets_the_response_with_its_id() {
    let (connection, mut server) = connected(MAX_LINE);
    let call = tokio::spawn(async move {
        let answer = connection.request("tools/list", json!({})).await;
        (answer, connection)
    });
    let request = server.next().await;
    assert_eq!(request["method"], "tools/list");
    assert_eq!(request["jsonrpc"], "2.0");
    let id = &request["id"];
    server
        .say(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[]}}}}"#
        ))
        .await;
    let (answer, _connection) = call.await.unwrap();
    assert_eq!(answer, Ok(json!({"tools": []})));
}

#[tokio::test]
async fn a_server_request_is_answered_while_ours_waits() {
    let (connection, mut server) = connected(MAX_LINE);
    let call = tokio::spawn(async move { connection.request("tools/call", json!({})).await });
    let id = server.next().await["id"].clone();
    server
        .say(r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#)
        .await;
    server
        .say(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#)
        .await;
    server
        .say(r#"{"jsonrpc":"2.0","id":"s2","method":"roots/list"}"#)
        .await;
    assert_eq!(
        server.next().await,
        json!({"jsonrpc": "2.0", "id": "s1", "result": {}})
    );
    let refused = server.next().await;
    assert_eq!(
        (refused["id"].clone(), refused["error"]["code"].clone()),
        (json!("s2"), json!(-32601))
    );
    server
        .say(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"ok":true}}}}"#
        ))
        .await;
    assert_eq!(call.await.unwrap(), Ok(json!({"ok": true})));
}

#[tokio::test]
async fn an_oversized_line_is_skipped_and_the_next_one_read() {
    let (connection, mut server) = connected(64);
    let call = tokio::spawn(async move { connection.request("tools/list", json!({})).await });
    let id = server.next().await["id"].clone();
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"pad":"{}"}}}}"#,
        "x".repeat(500)
    );
    server.say(&huge).await;
    server
        .say(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#))
        .await;
    assert_eq!(call.await.unwrap(), Ok(json!({})));
}

#[tokio::test]
async fn a_dropped_call_leaves_the_connection_working() {
    let (connection, mut server) = connected(MAX_LINE);
    let abandoned = tokio::time::timeout(
        Duration::from_millis(50),
        connection.request("slow", json!({})),
    )
    .await;
    assert!(abandoned.is_err(), "nobody answered yet");
    let slow_id = server.next().await["id"].clone();
    let connection = Arc::new(connection);
    let next = {
        let connection = Arc::clone(&connection);
        tokio::spawn(async move { connection.request("fast", json!({})).await })
    };
    let fast_id = server.next().await["id"].clone();
    server
        .say(&format!(
            r#"{{"jsonrpc":"2.0","id":{slow_id},"result":"late"}}"#
        ))
        .await;
    server
        .say(&format!(
            r#"{{"jsonrpc":"2.0","id":{fast_id},"result":"fast"}}"#
        ))
        .await;
    assert_eq!(next.await.unwrap(), Ok(json!("fast")));
}

#[tokio::test]
async fn errors_are_protocol_errors_and_a_hang_up_closes_the_session() {
    let (connection, mut server) = connected(MAX_LINE);
    let connection = Arc::new(connection);
    let call = {
        let connection = Arc::clone(&connection);
        tokio::spawn(async move { connection.request("tools/call", json!({})).await })
    };
    let id = server.next().await["id"].clone();
    server
        .say(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"unknown tool"}}}}"#
        ))
        .await;
    assert_eq!(
        call.await.unwrap(),
        Err(McpError::Protocol("unknown tool".into()))
    );
    let hung = {
        let connection = Arc::clone(&connection);
        tokio::spawn(async move { connection.request("tools/call", json!({})).await })
    };
    server.next().await;
    drop(server);
    let closed = McpError::Closed { last_output: None };
    assert_eq!(hung.await.unwrap(), Err(closed.clone()));
    assert_eq!(
        connection.request("tools/list", json!({})).await,
        Err(closed.clone())
    );
    assert_eq!(
        connection.notify("notifications/initialized").await,
        Err(closed)
    );
}
