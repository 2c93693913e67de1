//! What the fake model servers share: a script step, the matching of a step's tool to the
//! name a CLI offers it under, a script played in order, and the server's start.

use std::net::SocketAddr;
use std::sync::Mutex;

use serde_json::Value;

/// One model turn of the script.
#[derive(Clone, Debug)]
pub enum Step {
    Text(String),
    Call { tool: String, arguments: Value },
}

/// Whether the CLI's tool `offered` is the step's `tool`: the same name, or the name with
/// a prefix (`mcp__massgen__vote`, `mcp_massgen_vote`).
pub fn matches(offered: &str, tool: &str) -> bool {
    offered == tool
        || offered.ends_with(&format!("__{tool}"))
        || offered.ends_with(&format!("_{tool}"))
}

/// The name the CLI offers `tool` under, or `tool` itself when it offers none.
pub fn offered_name(offered: &[String], tool: &str) -> String {
    offered
        .iter()
        .find(|name| matches(name, tool))
        .cloned()
        .unwrap_or_else(|| tool.to_owned())
}

/// A policy that plays `steps` in order, whatever the request, then says "done.".
pub fn played<R>(steps: Vec<Step>) -> impl Fn(&R) -> Step + Send + Sync + 'static {
    let steps = Mutex::new(steps.into_iter());
    move |_| {
        steps
            .lock()
            .unwrap()
            .next()
            .unwrap_or_else(|| Step::Text("done.".into()))
    }
}

/// Serves `app` on 127.0.0.1 at a free port; the task ends when aborted. Call inside a
/// tokio runtime.
pub fn serve(app: axum::Router) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let address = listener.local_addr().unwrap();
    let listener = tokio::net::TcpListener::from_std(listener).unwrap();
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (address, server)
}
