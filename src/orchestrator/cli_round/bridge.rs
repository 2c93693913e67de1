//! An agent CLI's side of a call: the agent's tools served over a tool bridge whose calls
//! come back to the agent's task, one at a time, to be run there like any backend's.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use crate::backend::{AgentLoop, LoopContext, ToolCall, ToolSpec};
use crate::mcp::bridge::{self, BridgeReply, BridgeServer, BridgeTools};

/// One call the CLI made, waiting for its reply.
pub struct BridgeCall {
    pub call: ToolCall,
    pub reply: oneshot::Sender<BridgeReply>,
}

/// The bridge of one CLI start; the CLI loses it when this is dropped.
pub struct OpenBridge<'a> {
    pub calls: mpsc::Receiver<BridgeCall>,
    agent_loop: &'a dyn AgentLoop,
    _server: BridgeServer,
}

impl Drop for OpenBridge<'_> {
    fn drop(&mut self) {
        self.agent_loop.attach(None);
    }
}

/// Serves `tools` to the CLI behind `agent_loop`, confined to `confinement`, until the
/// returned bridge is dropped.
pub async fn open<'a>(
    agent_loop: &'a dyn AgentLoop,
    tools: Vec<ToolSpec>,
    confinement: Option<crate::sandbox::Plan>,
) -> std::io::Result<OpenBridge<'a>> {
    let (sender, calls) = mpsc::channel(4);
    let server = bridge::serve(Arc::new(Forwarding {
        tools,
        sender,
        next_id: AtomicU64::new(1),
    }))
    .await?;
    agent_loop.attach(Some(LoopContext {
        bridge: server.address.clone(),
        confinement,
    }));
    Ok(OpenBridge {
        calls,
        agent_loop,
        _server: server,
    })
}

struct Forwarding {
    tools: Vec<ToolSpec>,
    sender: mpsc::Sender<BridgeCall>,
    next_id: AtomicU64,
}

impl BridgeTools for Forwarding {
    fn tools(&self) -> Vec<ToolSpec> {
        self.tools.clone()
    }

    fn call(&self, name: String, arguments: serde_json::Value) -> BoxFuture<'static, BridgeReply> {
        let sender = self.sender.clone();
        let id = format!("bridge_{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        Box::pin(async move {
            let (reply, answer) = oneshot::channel();
            let call = ToolCall {
                id,
                name,
                arguments: arguments.to_string(),
                signature: None,
            };
            let gone = || BridgeReply {
                text: "This call arrived after the agent's round ended; it was not run.".into(),
                is_error: true,
            };
            if sender.send(BridgeCall { call, reply }).await.is_err() {
                return gone();
            }
            answer.await.unwrap_or_else(|_| gone())
        })
    }
}
