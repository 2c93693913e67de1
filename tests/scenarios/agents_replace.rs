//! `Op::ReplaceAgents` between turns: the next turn runs with the edited agents; a bad
//! config or a running turn leaves the agents as they were, with a warning saying why. The
//! model list the agents view offers is fetched from a provider's `/v1/models`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use massgen::backend::build_backends;
use massgen::backend::models::{ModelListError, list_models};
use massgen::config::{BackendKind, Env};
use massgen::orchestrator::{self, OrchestratorHandle, RuntimeOptions, ToolSetup};
use massgen::protocol::{Event, EventMsg, Mode, Op, TurnOptions};
use massgen::tools::NoTools;

const TWO: &str = "agents:\n  - id: a\n    backend: {type: scripted, model: m}\n  - id: b\n    \
                   backend: {type: scripted, model: m}\n";

fn start(dir: &std::path::Path) -> OrchestratorHandle {
    let config = crate::support::load(TWO);
    let backends = build_backends(&config, &Env::default()).unwrap();
    orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: None,
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: Some(orchestrator::config_loader(
                Env::default(),
                dir.to_path_buf(),
                false,
            )),
        },
    )
}

async fn next_event(handle: &mut OrchestratorHandle, wanted: fn(&EventMsg) -> bool) -> Event {
    loop {
        let event = tokio::time::timeout(std::time::Duration::from_secs(10), handle.events.recv())
            .await
            .expect("an event in time")
            .expect("the runtime runs");
        if wanted(&event.msg) {
            return event;
        }
    }
}

fn roster(event: &Event) -> Vec<String> {
    match &event.msg {
        EventMsg::AgentsReplaced { agents } | EventMsg::TurnStarted { agents, .. } => {
            agents.iter().map(|agent| agent.id.to_string()).collect()
        }
        other => panic!("no roster in {other:?}"),
    }
}

#[tokio::test]
async fn the_next_turn_runs_with_the_replaced_agents() {
    let dir = tempfile::tempdir().unwrap();
    let mut handle = start(dir.path());
    let yaml = "agents:\n  - id: solo\n    system_message: brief\n    backend: {type: scripted, \
                model: scripted-fast}\n";
    handle
        .ops
        .send(Op::ReplaceAgents { yaml: yaml.into() })
        .await
        .unwrap();
    let replaced = next_event(&mut handle, |msg| {
        matches!(msg, EventMsg::AgentsReplaced { .. })
    })
    .await;
    assert_eq!(roster(&replaced), ["solo"]);
    let events = handle.run_turn("hello").await;
    let started = events
        .iter()
        .find(|event| matches!(event.msg, EventMsg::TurnStarted { .. }))
        .unwrap();
    assert_eq!(roster(started), ["solo"]);
    crate::support::assert_completed(&events);
    assert_eq!(crate::support::winner(&events).as_deref(), Some("solo"));
}

#[tokio::test]
async fn a_bad_config_leaves_the_agents_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let mut handle = start(dir.path());
    let yaml = "agents:\n  - id: x\n    backend: {type: opnai, model: m}\n";
    handle
        .ops
        .send(Op::ReplaceAgents { yaml: yaml.into() })
        .await
        .unwrap();
    let warning = next_event(&mut handle, |msg| matches!(msg, EventMsg::Warning { .. })).await;
    let EventMsg::Warning { message } = &warning.msg else {
        unreachable!()
    };
    assert!(
        message.starts_with("the agents were not changed"),
        "{message}"
    );
    assert!(message.contains("opnai"), "{message}");
    let events = handle.run_turn("hello").await;
    let started = events
        .iter()
        .find(|event| matches!(event.msg, EventMsg::TurnStarted { .. }))
        .unwrap();
    assert_eq!(roster(started), ["a", "b"]);
}

#[tokio::test]
async fn agents_are_not_replaced_while_a_turn_runs() {
    let dir = tempfile::tempdir().unwrap();
    let slow = "agents:\n  - id: a\n    backend: {type: scripted, model: m, tokens_per_second: \
                5, first_token_ms: 300}\n";
    let config = crate::support::load(slow);
    let backends = build_backends(&config, &Env::default()).unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: None,
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: massgen::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: Some(orchestrator::config_loader(
                Env::default(),
                dir.path().to_path_buf(),
                false,
            )),
        },
    );
    let submit = Op::Submit {
        text: "q".into(),
        mode: Mode::Normal,
        context_paths: Vec::new(),
        options: TurnOptions::default(),
    };
    handle.ops.send(submit).await.unwrap();
    next_event(&mut handle, |msg| {
        matches!(msg, EventMsg::TurnStarted { .. })
    })
    .await;
    handle
        .ops
        .send(Op::ReplaceAgents { yaml: TWO.into() })
        .await
        .unwrap();
    let warning = next_event(&mut handle, |msg| matches!(msg, EventMsg::Warning { .. })).await;
    assert!(format!("{:?}", warning.msg).contains("while a turn runs"));
    handle.ops.send(Op::Cancel).await.unwrap();
}

/// A `/v1/models` server: `GET /v1/models` lists two models for the right key, 401 else.
async fn models_server() -> String {
    use axum::http::{HeaderMap, StatusCode};
    use axum::routing::get;
    let app = axum::Router::new().route(
        "/v1/models",
        get(|headers: HeaderMap| async move {
            let authorised = headers
                .get("authorization")
                .and_then(|value| value.to_str().ok())
                == Some("Bearer sk-test");
            if authorised {
                Ok(axum::Json(serde_json::json!({
                    "object": "list",
                    "data": [{"id": "zeta-2"}, {"id": "alpha-1"}, {"id": ""}]
                })))
            } else {
                Err(StatusCode::UNAUTHORIZED)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}/v1")
}

#[tokio::test]
async fn the_model_list_comes_from_the_providers_v1_models() {
    let base = models_server().await;
    let env = Env::from_pairs([("OPENAI_API_KEY", "sk-test")]);
    let models = list_models(BackendKind::Openai, Some(&base), &env).await;
    assert_eq!(
        models,
        Ok(vec!["alpha-1".to_string(), "zeta-2".to_string()])
    );
    let wrong = Env::from_pairs([("OPENAI_API_KEY", "sk-wrong")]);
    let refused = list_models(BackendKind::Openai, Some(&base), &wrong).await;
    assert!(matches!(
        refused,
        Err(ModelListError::Status { status: 401, .. })
    ));
    let keyless = list_models(BackendKind::Openai, None, &Env::default()).await;
    assert!(
        matches!(keyless, Err(ModelListError::Endpoint(ref m)) if m.contains("OPENAI_API_KEY"))
    );
    let none = list_models(BackendKind::Scripted, None, &env).await;
    assert!(matches!(none, Err(ModelListError::NoList(_))));
    let closed = list_models(BackendKind::Vllm, Some("http://127.0.0.1:9/v1"), &env).await;
    assert!(matches!(closed, Err(ModelListError::Unreachable { .. })));
}
