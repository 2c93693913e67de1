//! JSON-RPC 2.0 as massgen's MCP client speaks it: the messages it sends, and what comes
//! back sorted into responses, requests from the server (answered here) and notifications.

use serde_json::{Value, json};

/// The MCP revision massgen asks for; any revision the server answers with is accepted.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// "Method not found", the answer to every server request massgen does not serve.
const METHOD_NOT_FOUND: i64 = -32601;

/// The error object of a JSON-RPC error response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

/// One message from the server, sorted.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// The answer to our request `id`.
    Response {
        id: u64,
        outcome: Result<Value, RpcError>,
    },
    /// The server asked us something; `reply` is our answer, to send back.
    Request { reply: Value },
    /// Nothing to answer: a notification, or a message massgen cannot read.
    Ignored,
}

pub fn request(id: u64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

pub fn notification(method: &str) -> Value {
    json!({ "jsonrpc": "2.0", "method": method })
}

/// The `initialize` parameters: massgen's name and version, no client capabilities.
pub fn initialize_params() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": { "name": "massgen", "version": env!("CARGO_PKG_VERSION") },
    })
}

/// The messages of one body: a batch's items, or the one message.
pub fn split_batch(message: Value) -> Vec<Value> {
    match message {
        Value::Array(batch) => batch,
        message => vec![message],
    }
}

/// Sorts one message; server requests get their reply made here.
pub fn classify(message: Value) -> Incoming {
    tracing::trace!(target: "massgen::mcp::jsonrpc", "received {message}");
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").filter(|id| !id.is_null());
    match (method, id) {
        (Some(method), Some(id)) => Incoming::Request {
            reply: answer_server_request(method, id.clone()),
        },
        (Some(method), None) => {
            tracing::debug!(target: "massgen::mcp", method, "notification from the server");
            Incoming::Ignored
        }
        (None, Some(id)) => match request_id(id) {
            Some(id) => Incoming::Response {
                id,
                outcome: outcome(&message),
            },
            None => {
                tracing::debug!(target: "massgen::mcp", %id, "a response to no request of ours");
                Incoming::Ignored
            }
        },
        (None, None) => {
            tracing::debug!(target: "massgen::mcp", "a message without method or id: {message}");
            Incoming::Ignored
        }
    }
}

/// Our ids are numbers; a server that echoes one as a string is understood too.
fn request_id(id: &Value) -> Option<u64> {
    match id {
        Value::Number(number) => number.as_u64(),
        Value::String(text) => text.parse().ok(),
        _ => None,
    }
}

fn outcome(message: &Value) -> Result<Value, RpcError> {
    if let Some(error) = message.get("error") {
        return Err(RpcError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("an error without a message")
                .to_owned(),
        });
    }
    Ok(message.get("result").cloned().unwrap_or(Value::Null))
}

/// `ping` is answered; massgen offers no roots, sampling or elicitation.
fn answer_server_request(method: &str, id: Value) -> Value {
    tracing::debug!(target: "massgen::mcp", method, "request from the server");
    if method == "ping" {
        return json!({ "jsonrpc": "2.0", "id": id, "result": {} });
    }
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": METHOD_NOT_FOUND,
            "message": format!("massgen does not serve `{method}`"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_carry_their_result_or_error() {
        let ok = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": []}});
        assert_eq!(
            classify(ok),
            Incoming::Response {
                id: 3,
                outcome: Ok(json!({"tools": []}))
            }
        );
        let failed = json!({"jsonrpc": "2.0", "id": "4",
            "error": {"code": -32602, "message": "no such tool"}});
        assert_eq!(
            classify(failed),
            Incoming::Response {
                id: 4,
                outcome: Err(RpcError {
                    code: -32602,
                    message: "no such tool".into()
                })
            }
        );
    }

    #[test]
    fn server_requests_are_answered_ping_with_an_empty_result_the_rest_refused() {
        let ping = classify(json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"}));
        assert_eq!(
            ping,
            Incoming::Request {
                reply: json!({"jsonrpc": "2.0", "id": "p1", "result": {}})
            }
        );
        for method in ["roots/list", "sampling/createMessage", "elicitation/create"] {
            let Incoming::Request { reply } =
                classify(json!({"jsonrpc": "2.0", "id": 9, "method": method}))
            else {
                panic!("{method} is a request");
            };
            assert_eq!(reply["id"], 9);
            assert_eq!(reply["error"]["code"], -32601, "{method}");
        }
    }

    #[test]
    fn notifications_and_unreadable_messages_are_ignored() {
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress"});
        assert_eq!(classify(progress), Incoming::Ignored);
        assert_eq!(
            classify(json!({"id": null, "result": 1})),
            Incoming::Ignored
        );
        assert_eq!(
            classify(json!({"id": {"x": 1}, "result": 1})),
            Incoming::Ignored
        );
        assert_eq!(split_batch(json!([1, 2])).len(), 2);
        assert_eq!(split_batch(json!({"id": 1})).len(), 1);
    }
}
