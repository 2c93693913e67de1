//! `massgen --local`: fake model servers on the usual local ports (Ollama listing its models
//! only at `/api/tags`, vLLM and llama.cpp at `/v1/models`); `--local --dry-run` prints a
//! config of up to three agents over them that validates. A port already taken on this
//! machine is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::sandbox::{Sandbox, text};
use axum::Json;
use axum::routing::get;
use serde_json::json;

/// Serves `app` on 127.0.0.1:`port`, or `None` when the port is taken.
async fn serve(port: u16, app: axum::Router) -> Option<tokio::task::JoinHandle<()>> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .ok()?;
    Some(tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    }))
}

fn openai_models(models: &'static [&'static str]) -> axum::Router {
    axum::Router::new().route(
        "/v1/models",
        get(move || async move {
            let data: Vec<_> = models
                .iter()
                .map(|id| json!({"id": id, "object": "model"}))
                .collect();
            Json(json!({"object": "list", "data": data}))
        }),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_servers_become_a_config_of_up_to_three_agents() {
    let ollama = axum::Router::new().route(
        "/api/tags",
        get(|| async { Json(json!({"models": [{"name": "llama3.2:3b"}, {"name": "qwen3:8b"}]})) }),
    );
    let servers = [
        (11434, "ollama", 2, ollama),
        (
            8000,
            "vllm",
            1,
            openai_models(&["meta-llama/Llama-3.1-8B-Instruct"]),
        ),
        (8080, "llama_cpp", 1, openai_models(&["gguf-model"])),
    ];
    let mut running = Vec::new();
    let mut expected = Vec::new();
    let mut models = 0;
    for (port, name, count, app) in servers {
        if let Some(handle) = serve(port, app).await {
            running.push(handle);
            expected.push(name);
            models += count;
        }
    }
    if expected.is_empty() {
        eprintln!("every local model port is taken on this machine; nothing to check");
        return;
    }
    let sandbox = Sandbox::new();
    let mut command = sandbox.massgen();
    command.args(["--local", "--dry-run"]);
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let yaml = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{yaml}{}",
        text(&output.stderr)
    );
    let ids: Vec<&str> = yaml
        .lines()
        .filter_map(|line| line.strip_prefix("  - id: "))
        .collect();
    assert_eq!(ids.len(), models.min(3), "{yaml}");
    for name in &expected {
        assert!(
            ids.iter().any(|id| id.starts_with(name)),
            "{name} is used: {yaml}"
        );
    }
    if expected.contains(&"ollama") {
        assert!(
            yaml.contains("model: \"llama3.2:3b\"\n      base_url: \"http://127.0.0.1:11434/v1\""),
            "{yaml}"
        );
    }
    if expected.contains(&"vllm") {
        assert!(yaml.contains("type: vllm"), "{yaml}");
    }

    sandbox.write("local.yaml", &yaml);
    let mut command = sandbox.massgen();
    command.args(["--validate", "local.yaml"]);
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );

    // The offline demo, run with no config and no keys, points at what it found.
    let mut command = sandbox.massgen();
    command
        .args(["--display", "quiet", "q"])
        .timeout(std::time::Duration::from_secs(60))
        .write_stdin("");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("model servers found on this machine")
            && stderr.contains("run `massgen --local` to use them"),
        "{stderr}"
    );
    let mut command = sandbox.massgen();
    command
        .args(["--display", "quiet", "q"])
        .env("OPENAI_API_KEY", "sk-test-0123456789")
        .timeout(std::time::Duration::from_secs(60))
        .write_stdin("");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert!(
        !text(&output.stderr).contains("model servers found"),
        "someone with a key is not pointed at local servers"
    );
    for handle in running {
        handle.abort();
    }
}
