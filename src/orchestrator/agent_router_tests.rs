//! One agent's router over real built-in tools and a fake MCP server: names are never
//! offered twice, and MCP path arguments obey the agent's path policy.

use std::sync::atomic::{AtomicUsize, Ordering};

use futures::future::BoxFuture;
use serde_json::{Map, Value, json};

use super::*;
use crate::config::{McpServerConfig, McpTransport};
use crate::mcp::{CallResult, McpClient, McpError, RemoteTool};

struct FakeServer {
    calls: Arc<AtomicUsize>,
}

impl McpClient for FakeServer {
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<RemoteTool>, McpError>> {
        let tool = |name: &str| RemoteTool {
            name: name.into(),
            description: String::new(),
            input_schema: json!({"type": "object"}),
        };
        Box::pin(async move { Ok(vec![tool("write_file"), tool("fetch")]) })
    }

    fn call_tool<'a>(
        &'a self,
        _name: &'a str,
        _arguments: Map<String, Value>,
    ) -> BoxFuture<'a, Result<CallResult, McpError>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async {
            Ok(CallResult {
                is_error: false,
                text: "done".into(),
            })
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

async fn router(workspace: &std::path::Path, calls: Arc<AtomicUsize>) -> AgentToolRouter {
    let config = McpServerConfig {
        name: "filesystem".into(),
        transport: McpTransport::Stdio {
            command: "fake".into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        },
        connect_timeout: std::time::Duration::from_secs(5),
        call_timeout: std::time::Duration::from_secs(5),
        allowed_tools: None,
        exclude_tools: Vec::new(),
    };
    let connector: crate::mcp::Connector = Arc::new(move |_config| {
        let client: Arc<dyn McpClient> = Arc::new(FakeServer {
            calls: Arc::clone(&calls),
        });
        Box::pin(async move { Ok(client) })
    });
    let servers = McpServers::start_with(&[config], Arc::new(|_, _| {}), connector).await;
    let settings = ToolSettings {
        cwd: Some("workspace".into()),
        ..ToolSettings::default()
    };
    let policy = Arc::new(PathPolicy::new(
        workspace.to_path_buf(),
        Vec::new(),
        Vec::new(),
    ));
    let (_tx, notices) = mpsc::unbounded_channel();
    AgentToolRouter::new(
        settings.clone(),
        Some(BuiltinTools::new(policy, &settings)),
        Some(Arc::new(servers)),
        notices,
    )
}

fn call(name: &str, arguments: Value) -> ToolCall {
    ToolCall {
        id: "c".into(),
        name: name.into(),
        arguments: arguments.to_string(),
        signature: None,
    }
}

#[tokio::test]
async fn a_server_named_like_the_built_in_tools_never_doubles_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let router = router(dir.path(), Arc::default()).await;
    let names: Vec<String> = router.tools().into_iter().map(|spec| spec.name).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(names.len(), unique.len(), "{names:?}");
    assert!(names.contains(&"mcp__filesystem__fetch".to_string()));
}

#[tokio::test]
async fn mcp_path_arguments_outside_the_agents_roots_are_refused_before_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let router = router(&workspace, Arc::clone(&calls)).await;
    let outside = dir.path().join("elsewhere.txt");
    let refused = router
        .call(call(
            "mcp__filesystem__fetch",
            json!({"path": outside.display().to_string()}),
        ))
        .await;
    assert!(!refused.outcome.ok);
    assert!(matches!(
        &refused.events[..],
        [EventMsg::ToolRefused { .. }]
    ));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "the server was never asked"
    );

    let inside = workspace.join("notes.txt").display().to_string();
    let allowed = router
        .call(call(
            "mcp__filesystem__fetch",
            json!({"path": inside, "url": "/x/../y"}),
        ))
        .await;
    assert!(allowed.outcome.ok, "{:?}", allowed.outcome);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
