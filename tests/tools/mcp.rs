//! MCP against real servers: the npm `server-everything` and `server-filesystem` over
//! stdio, and `tests/peers/mcp_peer.py` (Python `mcp` 2.3.0) over stdio and streamable
//! HTTP. The peers are installed by `.ci/run`; without them these tests skip, except in
//! CI (`CI=true`), where a missing peer fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use crate::harness::{
    HttpPeer, everything, free_port, http, last_state, peer, python_stdio, ready_tools, start,
    stdio,
};
use massgen::config::{McpTransport, Secret};
use massgen::mcp::McpServers;
use massgen::protocol::McpServerState;
use serde_json::json;

#[tokio::test]
async fn everything_over_stdio_lists_and_calls_its_tools() {
    let Some(config) = everything() else { return };
    let (servers, reports) = start(&[config]).await;
    let tools = ready_tools(&reports, "everything");
    for name in ["mcp__everything__echo", "mcp__everything__get-sum"] {
        assert!(tools.iter().any(|tool| tool == name), "{name} in {tools:?}");
        assert!(servers.handles(name));
    }
    let echo = servers
        .tools()
        .into_iter()
        .find(|t| t.name == "mcp__everything__echo");
    assert_eq!(
        echo.unwrap().parameters["properties"]["message"]["type"],
        "string"
    );

    let echoed = servers
        .call("mcp__everything__echo", r#"{"message": "hi"}"#)
        .await;
    assert!(echoed.ok, "{}", echoed.output);
    assert_eq!(echoed.output, "Echo: hi");
    let sum = servers
        .call("mcp__everything__get-sum", r#"{"a": 2, "b": 3}"#)
        .await;
    assert_eq!(sum.output, "The sum of 2 and 3 is 5.");
    let image = servers.call("mcp__everything__get-tiny-image", "{}").await;
    assert!(image.ok, "{}", image.output);
    assert!(image.output.contains("[image/png, "), "{}", image.output);
    servers.shutdown().await;
}

#[tokio::test]
async fn filesystem_lists_a_directory_and_filters_apply() {
    let Some(bin) = peer("node_modules/.bin/mcp-server-filesystem") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "hello").unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut config = stdio("fs", &bin, &[root.to_str().unwrap()]);
    config.exclude_tools = vec!["read_media_file".into(), "mcp__fs__write_file".into()];
    let (servers, reports) = start(&[config]).await;

    let tools = ready_tools(&reports, "fs");
    assert!(
        tools.contains(&"mcp__fs__list_directory".to_string()),
        "{tools:?}"
    );
    assert!(!tools.contains(&"mcp__fs__read_media_file".to_string()));
    assert!(!servers.handles("mcp__fs__write_file"));
    let args = json!({"path": root}).to_string();
    let listing = servers.call("mcp__fs__list_directory", &args).await;
    assert!(listing.ok, "{}", listing.output);
    assert!(
        listing.output.contains("[FILE] notes.txt"),
        "{}",
        listing.output
    );
    assert!(listing.output.contains("[DIR] sub"), "{}", listing.output);
    let outside = servers
        .call("mcp__fs__list_directory", r#"{"path": "/"}"#)
        .await;
    assert!(
        !outside.ok,
        "the server refuses paths outside its roots: {}",
        outside.output
    );
    servers.shutdown().await;
}

#[tokio::test]
async fn python_peer_over_streamable_http_adds_fails_and_gets_our_headers() {
    let Some(peer) = HttpPeer::start() else {
        return;
    };
    let headers = vec![("X-Test-Token".to_string(), Secret::new("s3cret"))];
    let (servers, reports) = start(&[http("web", &peer.url, headers)]).await;
    let tools = ready_tools(&reports, "web");
    assert!(tools.contains(&"mcp__web__add".to_string()), "{tools:?}");

    let sum = servers.call("mcp__web__add", r#"{"a": 2, "b": 40}"#).await;
    assert_eq!((sum.ok, sum.output.as_str()), (true, "42"));
    let header = servers
        .call("mcp__web__header", r#"{"name": "x-test-token"}"#)
        .await;
    assert_eq!(header.output, "s3cret");
    let failed = servers
        .call("mcp__web__fail", r#"{"message": "no luck"}"#)
        .await;
    assert!(!failed.ok);
    assert!(failed.output.contains("no luck"), "{}", failed.output);
    servers.shutdown().await;
}

#[tokio::test]
async fn an_http_server_that_restarts_is_reconnected_to() {
    let Some(peer) = HttpPeer::start() else {
        return;
    };
    let (servers, _) = start(&[http("web", &peer.url, Vec::new())]).await;
    let port = peer.port;
    drop(peer);

    let down = servers.call("mcp__web__add", r#"{"a": 1, "b": 2}"#).await;
    assert!(!down.ok);
    assert!(down.output.contains("could not connect"), "{}", down.output);
    let Some(_again) = HttpPeer::start_on(port) else {
        return;
    };
    let back = servers.call("mcp__web__add", r#"{"a": 1, "b": 2}"#).await;
    assert_eq!(
        (back.ok, back.output.as_str()),
        (true, "3"),
        "a new session"
    );
    servers.shutdown().await;
}

#[tokio::test]
async fn an_http_server_that_is_not_there_fails_clearly() {
    let port = free_port();
    let mut config = http("gone", &format!("http://127.0.0.1:{port}/mcp"), Vec::new());
    config.connect_timeout = Duration::from_secs(10);
    let (servers, reports) = start(&[config]).await;
    assert!(servers.tools().is_empty());
    match last_state(&reports, "gone") {
        Some(McpServerState::Failed { error }) => {
            assert!(error.starts_with("could not connect"), "{error}");
        }
        other => panic!("expected Failed, got {other:?}"),
    }
}

#[tokio::test]
async fn a_missing_server_binary_fails_clearly_and_the_others_start() {
    let Some(everything) = everything() else {
        return;
    };
    let missing = stdio("nope", Path::new("/nonexistent/mcp-server-nope"), &[]);
    let (servers, reports) = start(&[missing, everything]).await;

    assert_eq!(
        last_state(&reports, "nope"),
        Some(McpServerState::Failed {
            error: "could not start `/nonexistent/mcp-server-nope`: no such program (check \
                    `command` in the config and that it is installed)"
                .into()
        })
    );
    assert!(!ready_tools(&reports, "everything").is_empty());
    assert!(
        servers
            .tools()
            .iter()
            .all(|t| t.name.starts_with("mcp__everything__"))
    );
    servers.shutdown().await;
}

#[tokio::test]
async fn a_server_that_exits_mid_call_is_explained_and_restarted() {
    let Some(config) = python_stdio("py") else {
        return;
    };
    let (servers, _) = start(&[config]).await;
    let crashed = servers.call("mcp__py__crash", "{}").await;
    assert!(!crashed.ok);
    assert!(
        crashed.output.contains("the server closed the connection")
            && crashed.output.contains("crashing on purpose"),
        "{}",
        crashed.output
    );
    let after = servers.call("mcp__py__add", r#"{"a": 1, "b": 1}"#).await;
    assert_eq!(
        (after.ok, after.output.as_str()),
        (true, "2"),
        "reconnected"
    );
    servers.shutdown().await;
}

#[tokio::test]
async fn a_call_past_its_timeout_is_abandoned_and_the_server_goes_on() {
    let Some(mut config) = everything() else {
        return;
    };
    config.call_timeout = Duration::from_secs(1);
    let (servers, _) = start(&[config]).await;
    let started = Instant::now();
    let args = r#"{"duration": 60, "steps": 2}"#;
    let hung = servers
        .call("mcp__everything__trigger-long-running-operation", args)
        .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!hung.ok);
    assert!(
        hung.output.contains("timed out after 1 s"),
        "{}",
        hung.output
    );
    assert!(
        hung.output.contains(args),
        "the arguments are repeated: {}",
        hung.output
    );
    let echoed = servers
        .call("mcp__everything__echo", r#"{"message": "still here"}"#)
        .await;
    assert_eq!(echoed.output, "Echo: still here");
    servers.shutdown().await;
}

#[tokio::test]
async fn repeated_timeouts_pause_the_server_and_calls_are_refused() {
    let Some(mut config) = everything() else {
        return;
    };
    config.call_timeout = Duration::from_secs(1);
    let (servers, reports) = start(&[config]).await;
    let slow = r#"{"duration": 60, "steps": 2}"#;
    for _ in 0..3 {
        servers
            .call("mcp__everything__trigger-long-running-operation", slow)
            .await;
    }
    assert_eq!(
        last_state(&reports, "everything"),
        Some(McpServerState::Paused { retry_in_secs: 30 })
    );
    let refused = servers
        .call("mcp__everything__echo", r#"{"message": "x"}"#)
        .await;
    assert!(!refused.ok);
    assert!(
        refused
            .output
            .starts_with("MCP server `everything` is paused after 3 failures; try again in"),
        "{}",
        refused.output
    );
    servers.shutdown().await;
}

#[tokio::test]
async fn env_cwd_and_a_noisy_stderr_are_handled() {
    let Some(mut config) = python_stdio("py") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    if let McpTransport::Stdio { env, cwd, .. } = &mut config.transport {
        env.push(("MASSGEN_TEST_VALUE".into(), Secret::new("abc")));
        *cwd = Some(dir.path().to_path_buf());
    }
    let (servers, _) = start(&[config]).await;
    let value = servers
        .call("mcp__py__env", r#"{"name": "MASSGEN_TEST_VALUE"}"#)
        .await;
    assert_eq!(value.output, "abc");
    // Our own environment (cargo sets CARGO_MANIFEST_DIR for tests) does not reach it;
    // PATH and HOME do.
    assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
    let ours = servers
        .call("mcp__py__env", r#"{"name": "CARGO_MANIFEST_DIR"}"#)
        .await;
    assert_eq!(
        ours.output, "",
        "massgen's environment leaked to the server"
    );
    let path = servers.call("mcp__py__env", r#"{"name": "PATH"}"#).await;
    assert!(!path.output.is_empty());
    let cwd = servers.call("mcp__py__cwd", "{}").await;
    assert_eq!(
        Path::new(&cwd.output).canonicalize().unwrap(),
        dir.path().canonicalize().unwrap()
    );
    // Far more than a pipe holds: an undrained stderr would block the server here.
    let noisy = servers.call("mcp__py__noisy", r#"{"kib": 512}"#).await;
    assert_eq!(noisy.output, "wrote 512 KiB to stderr");
    servers.shutdown().await;
}

#[tokio::test]
async fn tool_errors_come_back_as_failed_outcomes() {
    let Some(config) = python_stdio("py") else {
        return;
    };
    let (servers, reports) = start(&[config]).await;
    let failed = servers
        .call("mcp__py__fail", r#"{"message": "bad input"}"#)
        .await;
    assert!(!failed.ok);
    assert!(failed.output.contains("bad input"), "{}", failed.output);
    let wrong = servers.call("mcp__py__add", r#"{"a": "x"}"#).await;
    assert!(!wrong.ok, "{}", wrong.output);
    assert!(matches!(
        last_state(&reports, "py"),
        Some(McpServerState::Ready { .. })
    ));
    servers.shutdown().await;
}

#[cfg(target_os = "linux")]
async fn server_pid(servers: &McpServers) -> String {
    let pid = servers.call("mcp__py__pid", "{}").await;
    assert!(pid.ok, "{}", pid.output);
    pid.output
}

#[cfg(target_os = "linux")]
async fn gone_within(pid: &str, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Path::new("/proc").join(pid).exists() {
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    true
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn shutdown_and_drop_stop_the_server_process() {
    let Some(config) = python_stdio("py") else {
        return;
    };
    let (servers, _) = start(std::slice::from_ref(&config)).await;
    let pid = server_pid(&servers).await;
    servers.shutdown().await;
    assert!(
        gone_within(&pid, Duration::from_secs(10)).await,
        "shutdown stops {pid}"
    );

    let (servers, _) = start(&[config]).await;
    let pid = server_pid(&servers).await;
    drop(servers);
    assert!(
        gone_within(&pid, Duration::from_secs(10)).await,
        "drop stops {pid}"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_server_that_never_answers_times_out_and_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let script = format!("echo $$ > '{}'; exec sleep 1000", pid_file.display());
    let mut config = stdio("mute", Path::new("sh"), &["-c", &script]);
    config.connect_timeout = Duration::from_secs(1);
    let (servers, reports) = start(&[config]).await;

    assert!(servers.tools().is_empty());
    assert_eq!(
        last_state(&reports, "mute"),
        Some(McpServerState::Failed {
            error: "did not start within 1 s (connect_timeout)".into()
        })
    );
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    assert!(
        gone_within(pid.trim(), Duration::from_secs(10)).await,
        "the child is stopped"
    );
}
