//! One API request as one isolated massgen turn — its own backends, workspaces and log
//! directory, as a CLI turn has — driven to its end, with progress and the answer sent
//! back as [`Chunk`]s. A reader that goes away (the client disconnected) or the server's
//! shutdown cancels the turn, which is then saved like any cancelled turn.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::request::ChatRequest;
use crate::backend::{build_backends, secrets};
use crate::config::{Config, Env};
use crate::orchestrator::{self, OrchestratorHandle, RuntimeOptions, ToolSetup};
use crate::protocol::{EventMsg, Mode, Op, TurnOptions, TurnOutcome, Usage};
use crate::session::RunLogDir;

/// What every request's turn shares.
pub struct ServeContext {
    pub env: Env,
    pub project_dir: PathBuf,
    pub logs: bool,
}

#[derive(Debug)]
pub enum Chunk {
    /// Coordination progress: an answer, a vote, the winner.
    Reasoning(String),
    /// Final-answer text.
    Content(String),
    Done(Ending),
}

#[derive(Debug, Default)]
pub struct Ending {
    pub outcome: Option<TurnOutcome>,
    pub answer: Option<String>,
    pub usage: Usage,
    /// Why there is no answer, when there is none.
    pub problem: Option<String>,
}

/// A started turn: its chunks arrive on `chunks`, `Done` last.
pub struct Started {
    pub chunks: mpsc::Receiver<Chunk>,
    /// Its log directory, relative to the project when inside it; `None` with logs off.
    pub log_dir: Option<PathBuf>,
}

pub fn start(
    context: &ServeContext,
    config: Arc<Config>,
    request: &ChatRequest,
    shutdown: CancellationToken,
    registration: super::steer::Registration,
) -> Result<Started, String> {
    let config_agents: Vec<crate::protocol::AgentId> =
        config.agents.iter().map(|agent| agent.id.clone()).collect();
    let backends = build_backends(&config, &context.env).map_err(|error| error.to_string())?;
    let redactor = secrets::redactor_for(&config, &context.env);
    let logs = if context.logs {
        let massgen_dir = context.project_dir.join(".massgen");
        Some(RunLogDir::create(&massgen_dir).map_err(|error| {
            format!(
                "cannot create a log directory under {}: {error}",
                massgen_dir.display()
            )
        })?)
    } else {
        None
    };
    let log_dir = logs.as_ref().map(|dir| {
        dir.root()
            .strip_prefix(&context.project_dir)
            .unwrap_or(dir.root())
            .to_path_buf()
    });
    let mut handle = orchestrator::spawn(
        config,
        backends,
        ToolSetup::FromConfig {
            project_dir: context.project_dir.clone(),
        },
        RuntimeOptions {
            logs,
            resume: None,
            // API turns are not sessions to `--continue`; registering thousands of them
            // would also make every request rewrite an ever longer sessions.json.
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor,
            history: request.history.clone(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let submit = Op::Submit {
        text: request.question.clone(),
        mode: Mode::Normal,
        context_paths: Vec::new(),
        options: TurnOptions {
            strategy: request.strategy,
            ..TurnOptions::default()
        },
    };
    let agents = config_agents.clone();
    registration.attach(handle.ops.clone(), agents);
    let (tx, rx) = mpsc::channel(256);
    tokio::spawn(async move {
        // Steerable until the turn has ended.
        let registration = registration;
        if handle.ops.send(submit).await.is_ok() {
            drive(&mut handle, &tx, &shutdown).await;
        }
        drop(registration);
        let _ = handle.ops.send(Op::Shutdown).await;
        while handle.events.recv().await.is_some() {}
        let _ = handle.task.await;
    });
    Ok(Started {
        chunks: rx,
        log_dir,
    })
}

/// Forwards the turn's events as chunks until it finishes; cancels it when the reader or
/// the server goes away.
async fn drive(
    handle: &mut OrchestratorHandle,
    tx: &mpsc::Sender<Chunk>,
    shutdown: &CancellationToken,
) {
    let mut ending = Ending::default();
    let mut streamed = false;
    let mut cancelled = false;
    loop {
        let event = tokio::select! {
            event = handle.events.recv() => event,
            () = shutdown.cancelled(), if !cancelled => {
                cancelled = true;
                let _ = handle.ops.send(Op::Cancel).await;
                continue;
            }
            // The client went away (its response was dropped) while nothing was said.
            () = tx.closed(), if !cancelled => {
                cancelled = true;
                let _ = handle.ops.send(Op::Cancel).await;
                continue;
            }
        };
        let Some(event) = event else { return };
        let agent = event
            .agent
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let msg = event.msg;
        let chunk = if let EventMsg::AnswerSubmitted { label, .. } = msg {
            Some(Chunk::Reasoning(format!("{agent} answered ({label}).\n")))
        } else if let EventMsg::VoteCast { target, .. } = msg {
            Some(Chunk::Reasoning(format!("{agent} votes for {target}.\n")))
        } else if let EventMsg::WinnerSelected { winner, .. } = msg {
            Some(Chunk::Reasoning(format!(
                "{winner} is chosen and presents the final answer.\n"
            )))
        } else if let EventMsg::AgentError { message } = msg {
            let line = format!("{agent}: error: {message}\n");
            ending.problem = Some(message);
            Some(Chunk::Reasoning(line))
        } else if let EventMsg::Warning { message } = msg {
            let line = format!("{message}\n");
            ending.problem = Some(message);
            Some(Chunk::Reasoning(line))
        } else if let EventMsg::FinalPresentationDelta { text } = msg {
            streamed = true;
            Some(Chunk::Content(text))
        } else if let EventMsg::FinalPresentationDone { content, .. } = msg {
            let whole = (!streamed).then(|| Chunk::Content(content.clone()));
            ending.answer = Some(content);
            whole
        } else if let EventMsg::Usage { usage, .. } = msg {
            ending.usage += usage;
            None
        } else if let EventMsg::TurnFinished { outcome, .. } = msg {
            ending.outcome = Some(outcome);
            let _ = tx.send(Chunk::Done(ending)).await;
            return;
        } else {
            None
        };
        if let Some(chunk) = chunk
            && tx.send(chunk).await.is_err()
            && !cancelled
        {
            cancelled = true;
            let _ = handle.ops.send(Op::Cancel).await;
        }
    }
}
