//! The server manager over a fake client: filters, timeouts, crashes, the breaker.

use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::McpTransport;
use crate::mcp::{CallResult, RemoteTool};

/// One fake server's behaviour, by tool name: `echo` returns its arguments, `oops`
/// reports a tool error, `slow` never answers, `crash` ends the session.
struct Fake {
    world: Arc<World>,
}

#[derive(Default)]
struct World {
    connects: AtomicUsize,
    calls: AtomicUsize,
    closes: AtomicUsize,
}

impl McpClient for Fake {
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<RemoteTool>, McpError>> {
        let tool = |name: &str| RemoteTool {
            name: name.into(),
            description: format!("the {name} tool"),
            input_schema: json!({"type": "object"}),
        };
        Box::pin(async move { Ok(["echo", "oops", "slow", "crash"].map(tool).into()) })
    }

    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> BoxFuture<'a, Result<CallResult, McpError>> {
        self.world.calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            match name {
                "echo" => Ok(CallResult {
                    is_error: false,
                    text: serde_json::Value::Object(arguments).to_string(),
                }),
                "oops" => Ok(CallResult {
                    is_error: true,
                    text: "bad input".into(),
                }),
                "slow" => futures::future::pending().await,
                "crash" => Err(McpError::Closed {
                    last_output: Some("boom".into()),
                }),
                other => Err(McpError::Protocol(format!("unknown tool {other}"))),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.world.closes.fetch_add(1, Ordering::SeqCst);
        Box::pin(async {})
    }
}

/// Servers named `broken` fail to start, `hangs` never answers; others are [`Fake`]s.
fn connector(world: &Arc<World>) -> Connector {
    let world = world.clone();
    Arc::new(move |config: McpServerConfig| {
        let world = world.clone();
        Box::pin(async move {
            world.connects.fetch_add(1, Ordering::SeqCst);
            match config.name.as_str() {
                "broken" => Err(McpError::Spawn {
                    command: "nope".into(),
                    reason: "no such program".into(),
                }),
                "hangs" => futures::future::pending().await,
                _ => Ok(Arc::new(Fake { world }) as Arc<dyn McpClient>),
            }
        })
    })
}

fn server(name: &str) -> McpServerConfig {
    McpServerConfig {
        name: name.into(),
        transport: McpTransport::Stdio {
            command: "fake".into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        },
        connect_timeout: Duration::from_secs(5),
        call_timeout: Duration::from_secs(1),
        allowed_tools: None,
        exclude_tools: Vec::new(),
    }
}

type Reports = Arc<Mutex<Vec<(String, McpServerState)>>>;

async fn start(configs: &[McpServerConfig]) -> (McpServers, Arc<World>, Reports) {
    let world = Arc::new(World::default());
    let reports = Reports::default();
    let sink = reports.clone();
    let report: Report = Arc::new(move |server: &str, state| {
        lock(&sink).push((server.to_owned(), state));
    });
    let servers = McpServers::start_with(configs, report, connector(&world)).await;
    (servers, world, reports)
}

fn taken(reports: &Reports) -> Vec<(String, McpServerState)> {
    std::mem::take(&mut *lock(reports))
}

fn names(specs: &[ToolSpec]) -> Vec<&str> {
    specs.iter().map(|spec| spec.name.as_str()).collect()
}

#[tokio::test]
async fn start_reports_ready_with_the_tools_left_after_filters() {
    let mut only_two = server("a");
    only_two.allowed_tools = Some(vec!["echo".into(), "mcp__a__oops".into()]);
    let mut no_slow = server("b");
    no_slow.exclude_tools = vec!["mcp__b__slow".into(), "crash".into()];
    let (servers, _, reports) = start(&[only_two, no_slow]).await;

    assert_eq!(
        names(&servers.tools()),
        [
            "mcp__a__echo",
            "mcp__a__oops",
            "mcp__b__echo",
            "mcp__b__oops"
        ]
    );
    assert_eq!(servers.tools()[0].description, "the echo tool");
    assert!(servers.handles("mcp__b__echo"));
    assert!(
        !servers.handles("mcp__b__slow"),
        "excluded tools are not handled"
    );
    let reports = taken(&reports);
    assert!(reports.contains(&("a".into(), McpServerState::Starting)));
    assert!(reports.contains(&(
        "b".into(),
        McpServerState::Ready {
            tools: vec!["mcp__b__echo".into(), "mcp__b__oops".into()]
        }
    )));
}

#[tokio::test(start_paused = true)]
async fn servers_that_fail_to_start_are_left_out_and_the_rest_go_on() {
    let mut hangs = server("hangs");
    hangs.connect_timeout = Duration::from_secs(2);
    let (servers, _, reports) = start(&[server("broken"), hangs, server("ok"), server("ok")]).await;

    assert_eq!(
        names(&servers.tools()),
        [
            "mcp__ok__echo",
            "mcp__ok__oops",
            "mcp__ok__slow",
            "mcp__ok__crash"
        ]
    );
    let mut failures: Vec<_> = taken(&reports)
        .into_iter()
        .filter_map(|(server, state)| match state {
            McpServerState::Failed { error } => Some(format!("{server}: {error}")),
            McpServerState::Starting
            | McpServerState::Ready { .. }
            | McpServerState::Paused { .. } => None,
        })
        .collect();
    failures.sort();
    assert_eq!(
        failures,
        [
            "broken: could not start `nope`: no such program",
            "hangs: did not start within 2 s (connect_timeout)",
            "ok: another MCP server is already named `ok`",
        ]
    );
}

#[tokio::test]
async fn calls_return_the_tool_text_and_tool_errors_are_not_ok() {
    let (servers, _, _) = start(&[server("s")]).await;
    let echoed = servers.call("mcp__s__echo", r#"{"text": "hi"}"#).await;
    assert_eq!(
        echoed,
        ToolOutcome {
            ok: true,
            output: r#"{"text":"hi"}"#.into()
        }
    );
    let failed = servers.call("mcp__s__oops", "{}").await;
    assert_eq!(
        failed,
        ToolOutcome {
            ok: false,
            output: "bad input".into()
        }
    );
}

#[tokio::test]
async fn bad_arguments_and_unknown_tools_are_refused_without_a_call() {
    let mut config = server("s");
    config.exclude_tools = vec!["crash".into()];
    let (servers, world, _) = start(&[config]).await;

    let not_json = servers.call("mcp__s__echo", "{oops").await;
    assert!(!not_json.ok);
    assert!(
        not_json.output.contains("not valid JSON"),
        "{}",
        not_json.output
    );
    let array = servers.call("mcp__s__echo", "[1, 2]").await;
    assert!(
        array
            .output
            .contains("they are an array, not a JSON object"),
        "{}",
        array.output
    );
    let unknown = servers.call("mcp__s__nope", "{}").await;
    assert!(
        unknown.output.contains("is not offered"),
        "{}",
        unknown.output
    );
    let excluded = servers.call("mcp__s__crash", "{}").await;
    assert!(
        excluded.output.contains("is not offered"),
        "{}",
        excluded.output
    );
    assert_eq!(world.calls.load(Ordering::SeqCst), 0);

    let empty = servers.call("mcp__s__echo", "  ").await;
    assert_eq!(
        empty,
        ToolOutcome {
            ok: true,
            output: "{}".into()
        }
    );
}

#[tokio::test(start_paused = true)]
async fn a_call_past_its_timeout_is_abandoned_with_an_arguments_preview() {
    let (servers, _, _) = start(&[server("s")]).await;
    let long = format!(r#"{{"text": "{}"}}"#, "z".repeat(500));
    let outcome = servers.call("mcp__s__slow", &long).await;
    assert!(!outcome.ok);
    assert!(
        outcome
            .output
            .starts_with("Tool `mcp__s__slow` timed out after 1 s"),
        "{}",
        outcome.output
    );
    assert!(
        outcome.output.contains(r#"(arguments: {"text": "zzz"#),
        "{}",
        outcome.output
    );
    assert!(
        outcome.output.contains("z…)"),
        "the preview is cut: {}",
        outcome.output
    );
}

#[tokio::test]
async fn a_crash_mid_call_is_explained_and_the_next_call_reconnects() {
    let (servers, world, _) = start(&[server("s")]).await;
    let crashed = servers.call("mcp__s__crash", "{}").await;
    assert_eq!(
        crashed.output,
        "Tool `mcp__s__crash` failed: MCP server `s`: the server closed the connection (it \
         exited or crashed); its last output: boom."
    );
    assert!(!crashed.ok);
    assert_eq!(world.connects.load(Ordering::SeqCst), 1);

    let after = servers.call("mcp__s__echo", "{}").await;
    assert!(after.ok, "{}", after.output);
    assert_eq!(world.connects.load(Ordering::SeqCst), 2);
    assert_eq!(
        world.closes.load(Ordering::SeqCst),
        1,
        "the dead session is closed"
    );
}

#[tokio::test(start_paused = true)]
async fn three_failures_pause_the_server_and_a_success_after_the_pause_reports_ready() {
    let (servers, world, reports) = start(&[server("s")]).await;
    taken(&reports);
    for _ in 0..2 {
        servers.call("mcp__s__slow", "{}").await;
    }
    assert_eq!(taken(&reports), []);
    servers.call("mcp__s__slow", "{}").await;
    assert_eq!(
        taken(&reports),
        [("s".into(), McpServerState::Paused { retry_in_secs: 30 })]
    );

    tokio::time::advance(Duration::from_secs(10)).await;
    let calls_before = world.calls.load(Ordering::SeqCst);
    let refused = servers.call("mcp__s__echo", "{}").await;
    assert_eq!(
        refused,
        ToolOutcome {
            ok: false,
            output: "MCP server `s` is paused after 3 failures; try again in 20 s.".into()
        }
    );
    assert_eq!(world.calls.load(Ordering::SeqCst), calls_before, "not sent");

    tokio::time::advance(Duration::from_secs(21)).await;
    let recovered = servers.call("mcp__s__echo", "{}").await;
    assert!(recovered.ok, "{}", recovered.output);
    assert_eq!(
        taken(&reports),
        [(
            "s".into(),
            McpServerState::Ready {
                tools: ["echo", "oops", "slow", "crash"]
                    .map(|t| format!("mcp__s__{t}"))
                    .into()
            }
        )]
    );
}

#[tokio::test]
async fn tool_errors_do_not_count_as_server_failures() {
    let (servers, _, reports) = start(&[server("s")]).await;
    taken(&reports);
    for _ in 0..5 {
        servers.call("mcp__s__oops", "{}").await;
    }
    assert_eq!(taken(&reports), []);
    assert!(servers.call("mcp__s__echo", "{}").await.ok);
}

#[tokio::test]
async fn shutdown_closes_every_session() {
    let (servers, world, _) = start(&[server("a"), server("b")]).await;
    servers.shutdown().await;
    assert_eq!(world.closes.load(Ordering::SeqCst), 2);
    let after = servers.call("mcp__a__echo", "{}").await;
    assert_eq!(after.output, "MCP server `a` has been shut down.");
    assert_eq!(
        world.connects.load(Ordering::SeqCst),
        2,
        "no restart after shutdown"
    );
}
