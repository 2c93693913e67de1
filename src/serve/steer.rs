//! Steering a running API turn: `POST /v1/chat/completions/{id}/steer` queues human input
//! for the turn whose completion id is `{id}`, the way typing during a turn does. The
//! registry of running turns by id lives here; a client may pick the id up front with the
//! `X-MassGen-Run-Id` header.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::errors::ApiError;
use crate::protocol::{AgentId, Op};

/// The request header naming a turn's id up front.
pub const RUN_ID_HEADER: &str = "x-massgen-run-id";

/// The longest id a client may choose.
const MAX_RUN_ID: usize = 64;

/// A running turn's way in: its ops, and its agents (to check targets against).
struct Entry {
    ops: Option<mpsc::Sender<Op>>,
    agents: Vec<AgentId>,
}

/// The turns running now, by completion id.
#[derive(Clone, Default)]
pub struct RunningTurns {
    turns: Arc<Mutex<HashMap<String, Entry>>>,
}

/// A turn's place in the registry, from before its start until it is dropped (the turn
/// finished).
pub struct Registration {
    id: String,
    turns: RunningTurns,
}

impl Registration {
    /// The turn has started: steering reaches it through `ops` from now on.
    pub fn attach(&self, ops: mpsc::Sender<Op>, agents: Vec<AgentId>) {
        if let Some(entry) = self.turns.lock().get_mut(&self.id) {
            entry.ops = Some(ops);
            entry.agents = agents;
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.turns.lock().remove(&self.id);
    }
}

impl RunningTurns {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.turns.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `id` for a turn about to start; 409 when a running turn has it.
    pub fn register(&self, id: &str) -> Result<Registration, ApiError> {
        let mut turns = self.lock();
        if turns.contains_key(id) {
            return Err(ApiError::conflict(format!(
                "a running turn already has the id `{id}`: choose another {RUN_ID_HEADER}"
            )));
        }
        turns.insert(
            id.to_string(),
            Entry {
                ops: None,
                agents: Vec::new(),
            },
        );
        Ok(Registration {
            id: id.to_string(),
            turns: self.clone(),
        })
    }

    /// Queues `body`'s input for the turn `id`: 202 naming the agents it is for.
    pub async fn steer(&self, id: &str, body: &[u8]) -> Result<Response, ApiError> {
        let (ops, agents) = {
            let turns = self.lock();
            let entry = turns
                .get(id)
                .and_then(|entry| Some((entry.ops.clone()?, entry)));
            let Some((ops, entry)) = entry else {
                return Err(ApiError::not_found(
                    format!("no running turn has the id `{id}`"),
                    "turn_not_found",
                ));
            };
            (ops, entry.agents.clone())
        };
        let steering = parse(body)?;
        let targets = match steering.target_agents {
            None => Vec::new(),
            Some(asked) => checked_targets(asked, &agents)?,
        };
        let op = Op::InjectHumanInput {
            text: steering.content,
            targets: targets.clone(),
        };
        if ops.send(op).await.is_err() {
            return Err(ApiError::not_found(
                format!("the turn `{id}` has just finished"),
                "turn_not_found",
            ));
        }
        let shown = if targets.is_empty() { agents } else { targets };
        let body = json!({"queued": true, "targets": shown});
        Ok((StatusCode::ACCEPTED, axum::Json(body)).into_response())
    }
}

/// The id a request asks for with `X-MassGen-Run-Id`: 1–64 of `A-Z a-z 0-9 _ -`.
pub fn chosen_id(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(RUN_ID_HEADER) else {
        return Ok(None);
    };
    let id = value.to_str().unwrap_or_default();
    let valid = (1..=MAX_RUN_ID).contains(&id.len())
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-');
    if valid {
        Ok(Some(id.to_string()))
    } else {
        Err(ApiError::bad_request(
            format!("{RUN_ID_HEADER} must be 1 to {MAX_RUN_ID} letters, digits, `_` or `-`"),
            None,
        ))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SteerBody {
    content: String,
    #[serde(default)]
    target_agents: Option<Vec<String>>,
}

fn parse(body: &[u8]) -> Result<SteerBody, ApiError> {
    let steering: SteerBody = serde_json::from_slice(body).map_err(|error| {
        ApiError::bad_request(
            format!(
                "the body must be {{\"content\": \"…\", \"target_agents\": [\"…\"]}} \
                 ({error})"
            ),
            None,
        )
    })?;
    if steering.content.trim().is_empty() {
        return Err(ApiError::bad_request("`content` is empty", Some("content")));
    }
    Ok(steering)
}

/// `asked` as agent ids, every one of them among `agents`; an empty list means everyone.
fn checked_targets(asked: Vec<String>, agents: &[AgentId]) -> Result<Vec<AgentId>, ApiError> {
    let targets: Vec<AgentId> = asked.into_iter().map(AgentId::new).collect();
    let unknown: Vec<&str> = targets
        .iter()
        .filter(|target| !agents.contains(target))
        .map(AgentId::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(targets);
    }
    let known: Vec<&str> = agents.iter().map(AgentId::as_str).collect();
    Err(ApiError::bad_request(
        format!(
            "no agent {} in this turn (agents: {})",
            unknown.join(", "),
            known.join(", ")
        ),
        Some("target_agents"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_id_is_checked() {
        let mut headers = HeaderMap::new();
        assert_eq!(chosen_id(&headers).unwrap(), None);
        headers.insert(RUN_ID_HEADER, "run_1-a".parse().unwrap());
        assert_eq!(chosen_id(&headers).unwrap().as_deref(), Some("run_1-a"));
        for bad in ["", "has space", "dot.ted", &"x".repeat(65)] {
            headers.insert(RUN_ID_HEADER, bad.parse().unwrap());
            assert_eq!(
                chosen_id(&headers).unwrap_err().status,
                StatusCode::BAD_REQUEST,
                "{bad:?}"
            );
        }
    }

    #[tokio::test]
    async fn steering_reaches_a_registered_turn_until_it_finishes() {
        let turns = RunningTurns::default();
        let registration = turns.register("run-1").unwrap();
        assert_eq!(
            turns.register("run-1").err().map(|error| error.status),
            Some(StatusCode::CONFLICT)
        );
        let (tx, mut rx) = mpsc::channel(4);
        registration.attach(tx, vec![AgentId::new("a"), AgentId::new("b")]);
        let body = br#"{"content": "focus", "target_agents": ["b"]}"#;
        let response = turns.steer("run-1", body).await.unwrap();
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        assert_eq!(
            rx.recv().await,
            Some(Op::InjectHumanInput {
                text: "focus".into(),
                targets: vec![AgentId::new("b")]
            })
        );
        let unknown = br#"{"content": "x", "target_agents": ["zed"]}"#;
        let error = turns.steer("run-1", unknown).await.unwrap_err();
        assert!(error.message.contains("zed") && error.message.contains("a, b"));
        let empty = br#"{"content": " "}"#;
        assert_eq!(
            turns.steer("run-1", empty).await.unwrap_err().status,
            StatusCode::BAD_REQUEST
        );
        drop(registration);
        let gone = turns.steer("run-1", br#"{"content": "x"}"#).await;
        assert_eq!(gone.unwrap_err().status, StatusCode::NOT_FOUND);
        assert!(turns.register("run-1").is_ok(), "the id is free again");
    }
}
