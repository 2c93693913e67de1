//! The agents view's IO for the app loop: model lists fetched in the background, configs
//! written (never over an existing file unless the user said so), and their outcomes fed
//! back to the app as news.

use std::path::Path;

use tokio::sync::mpsc::UnboundedSender;

use super::app::{App, Effect};
use crate::backend::models::list_models;
use crate::config::{BackendKind, Env};

/// How a save went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    Saved,
    /// The file exists and the save was not told to replace it.
    Exists,
    Failed(String),
}

/// What came back from the agents view's IO.
#[derive(Debug)]
pub enum AgentsNews {
    Models {
        kind: BackendKind,
        result: Result<Vec<String>, String>,
    },
    Saved {
        path: String,
        outcome: SaveOutcome,
    },
}

/// Starts `effect` (a fetch or a save); its outcome arrives on `news`.
pub fn carry_out(effect: Effect, env: &Env, news: &UnboundedSender<AgentsNews>) {
    match effect {
        Effect::FetchModels { kind, base_url } => {
            let (env, news) = (env.clone(), news.clone());
            tokio::spawn(async move {
                let result = list_models(kind, base_url.as_deref(), &env)
                    .await
                    .map_err(|error| error.to_string());
                let _ = news.send(AgentsNews::Models { kind, result });
            });
        }
        Effect::SaveAgents {
            path,
            yaml,
            overwrite,
        } => {
            let outcome = save(&path, &yaml, overwrite);
            let path = path.display().to_string();
            let _ = news.send(AgentsNews::Saved { path, outcome });
        }
        Effect::Send(_)
        | Effect::OpenFile(_)
        | Effect::Copy(_)
        | Effect::Export { .. }
        | Effect::Quit => {}
    }
}

/// Hands `news` to the app; the effects it answers with.
pub fn deliver(app: &mut App, news: AgentsNews) -> Vec<Effect> {
    match news {
        AgentsNews::Models { kind, result } => {
            app.models_listed(kind, result);
            Vec::new()
        }
        AgentsNews::Saved { path, outcome } => app.agents_saved(&path, outcome),
    }
}

/// Writes `yaml` to `path` (its directory made if needed), atomically.
pub fn save(path: &Path, yaml: &str, overwrite: bool) -> SaveOutcome {
    if path.exists() && !overwrite {
        return SaveOutcome::Exists;
    }
    let written = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| crate::session::write_atomic(path, yaml.as_bytes()));
    match written {
        Ok(()) => SaveOutcome::Saved,
        Err(error) => SaveOutcome::Failed(format!("{}: {error}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_keeps_an_existing_file_unless_told_to_replace_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/agents.yaml");
        assert_eq!(save(&path, "a: 1\n", false), SaveOutcome::Saved);
        assert_eq!(save(&path, "a: 2\n", false), SaveOutcome::Exists);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
        assert_eq!(save(&path, "a: 3\n", true), SaveOutcome::Saved);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 3\n");
        let blocked = dir.path().join("deep/agents.yaml/inside.yaml");
        assert!(matches!(save(&blocked, "", false), SaveOutcome::Failed(_)));
    }

    /// A fetch effect runs in the background and its list comes back as news.
    #[tokio::test]
    async fn a_model_list_fetch_comes_back_as_news() {
        let app = axum::Router::new().route(
            "/v1/models",
            axum::routing::get(|| async {
                axum::Json(serde_json::json!({"data": [{"id": "qwen3"}, {"id": "llama3"}]}))
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        let (news, mut heard) = tokio::sync::mpsc::unbounded_channel();
        let fetch = Effect::FetchModels {
            kind: BackendKind::Vllm,
            base_url: Some(base_url),
        };
        carry_out(fetch, &Env::default(), &news);
        let arrived = tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv())
            .await
            .unwrap()
            .unwrap();
        let AgentsNews::Models { kind, result } = arrived else {
            panic!("{arrived:?}")
        };
        assert_eq!(kind, BackendKind::Vllm);
        assert_eq!(result, Ok(vec!["llama3".to_string(), "qwen3".to_string()]));
    }
}
