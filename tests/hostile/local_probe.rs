//! Hostile: local_probe. `massgen --local` asks the well-known model ports for their
//! listings; whatever listens there and streams without end is read only up to a small cap.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use super::support::sandbox::Sandbox;

/// Peak resident memory of a child, in kB, sampled until it exits.
#[cfg(target_os = "linux")]
fn peak_rss_kb(child: &mut std::process::Child, deadline: Duration) -> u64 {
    let started = Instant::now();
    let mut peak = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            let high_water = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok());
            peak = peak.max(high_water.unwrap_or(0));
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        assert!(
            started.elapsed() < deadline,
            "still running after {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_probe_reads_a_bounded_listing() {
    use axum::body::Body;
    use axum::routing::get;

    // Whatever listens on a model port streams without end.
    let endless = || {
        let chunk = axum::body::Bytes::from(vec![b' '; 64 << 10]);
        Body::from_stream(futures::stream::repeat_with(move || {
            Ok::<_, std::io::Error>(chunk.clone())
        }))
    };
    let app = axum::Router::new()
        .route("/v1/models", get(move || async move { endless() }))
        .route("/api/tags", get(move || async move { endless() }));
    let mut listener = None;
    for port in [11434, 1234, 8000, 30000, 8080] {
        if let Ok(bound) = tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            listener = Some(bound);
            break;
        }
    }
    let Some(listener) = listener else {
        eprintln!("every local model port is taken on this machine; nothing to check");
        return;
    };
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    let sandbox = Sandbox::new();
    let home = sandbox.root.join("home");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("massgen"))
        .current_dir(&sandbox.root)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .args(["--local", "--dry-run"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let peak =
        tokio::task::spawn_blocking(move || peak_rss_kb(&mut child, Duration::from_secs(20)))
            .await
            .unwrap();
    server.abort();
    assert!(
        peak < 100_000,
        "--local held {peak} kB reading an endless model listing"
    );
}
