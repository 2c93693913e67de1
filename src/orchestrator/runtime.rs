//! The orchestrator runtime: a background task that takes `Op`s, runs one turn at a time,
//! keeps the conversation history between turns, and emits every `Event`.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::emitter::Emitter;
use super::prompts::HistoryEntry;
use super::run_logs::Logs;
use super::toolset::{self, ToolSetup};
use super::turn::{RunContext, TurnRequest, run_turn};
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{AgentInfo, Event, EventMsg, Op};
use crate::session::{RunLogDir, SessionInfo};
use crate::workspace::ContextRootSpec;

pub struct RuntimeOptions {
    /// The run's log directory under the project's `.massgen`, made before the runtime
    /// starts so tracing writes `massgen.log` beside the turns; `None` turns logging off.
    pub logs: Option<RunLogDir>,
    /// An earlier session to go on with (`--continue`): its turns become the history,
    /// and new turns are recorded in it.
    pub resume: Option<SessionInfo>,
    /// The registry of sessions to keep up to date (`~/.massgen/sessions.json`, see
    /// `session::registry_path`); `None` leaves it alone, as tests do.
    pub session_registry: Option<std::path::PathBuf>,
}

/// The front end's side of a running orchestrator.
pub struct OrchestratorHandle {
    pub ops: mpsc::Sender<Op>,
    pub events: mpsc::UnboundedReceiver<Event>,
    pub task: JoinHandle<()>,
}

/// Starts the runtime on the current tokio runtime. `backends` are in config order.
pub fn spawn(
    config: Arc<Config>,
    backends: Vec<Arc<dyn Backend>>,
    tools: ToolSetup,
    options: RuntimeOptions,
) -> OrchestratorHandle {
    let (ops_tx, ops_rx) = mpsc::channel(64);
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(run(
        (config, backends, tools),
        options,
        ops_rx,
        Emitter::new(events_tx),
    ));
    OrchestratorHandle {
        ops: ops_tx,
        events: events_rx,
        task,
    }
}

fn roster(config: &Config, backends: &[Arc<dyn Backend>]) -> Vec<AgentInfo> {
    AgentInfo::roster(config.agents.iter().zip(backends).map(|(agent, backend)| {
        (
            agent.id.clone(),
            backend.provider().to_string(),
            backend.model().to_string(),
        )
    }))
}

async fn run(
    (config, backends, tools): (Arc<Config>, Vec<Arc<dyn Backend>>, ToolSetup),
    options: RuntimeOptions,
    mut ops: mpsc::Receiver<Op>,
    mut emitter: Emitter,
) {
    let roster = roster(&config, &backends);
    emitter.emit(
        None,
        EventMsg::RunStarted {
            version: env!("CARGO_PKG_VERSION").to_string(),
            agents: roster.clone(),
        },
    );
    let agent_tools = toolset::prepare(tools, &config, &roster, &mut emitter).await;
    let context = RunContext {
        config,
        backends,
        routers: agent_tools.routers.clone(),
        workspaces: agent_tools.workspaces.clone(),
        roster,
    };
    let mut logs = Logs::new(options.logs, options.session_registry);
    let mut history: Vec<HistoryEntry> = Vec::new();
    let mut turn_number = 0;
    if let Some(session) = options.resume {
        turn_number = session.next_turn() - 1;
        history = session
            .turns
            .iter()
            .map(|turn| HistoryEntry {
                question: turn.question.clone(),
                answer: turn.answer.clone(),
            })
            .collect();
        logs.continue_session(session.store());
        emitter.emit(None, session.resumed_event());
    }
    while let Some(op) = ops.recv().await {
        match op {
            Op::Submit {
                text,
                mode,
                context_paths,
                options,
            } => {
                turn_number += 1;
                let attached: Vec<ContextRootSpec> =
                    context_paths.iter().map(ContextRootSpec::from).collect();
                toolset::begin_turn(&context.routers, context.workspaces.as_ref(), &attached).await;
                let log = logs.open_turn(turn_number, &mut emitter).await;
                let log_dir = log.as_ref().map(|log| log.dir().to_path_buf());
                logs.begin_turn(turn_number, text.clone(), log_dir).await;
                emitter.begin_turn(turn_number, log);
                let request = TurnRequest {
                    question: text.clone(),
                    mode,
                    options,
                    history: history.clone(),
                    today: jiff::Zoned::now().date().to_string(),
                    attached,
                };
                let report = run_turn(&context, request, &mut emitter, &mut ops).await;
                if let Some(log) = emitter.end_turn() {
                    logs.finish_turn(log, turn_number, &context.config, &text)
                        .await;
                }
                if let Some(answer) = report.final_answer {
                    history.push(HistoryEntry {
                        question: text,
                        answer,
                    });
                }
                if report.shutdown {
                    break;
                }
            }
            Op::Cancel | Op::Step | Op::ListPlans => {}
            Op::AnswerQuestion { .. } => emitter.emit(
                None,
                EventMsg::Warning {
                    message: "no turn is running, so no agent is waiting for that answer".into(),
                },
            ),
            Op::ClearHistory => {
                history.clear();
                tracing::debug!("conversation history cleared");
                emitter.emit(None, EventMsg::HistoryCleared);
            }
            Op::InjectHumanInput { .. } => emitter.emit(
                None,
                EventMsg::Warning {
                    message: "no turn is running, so there is nobody to pass the input to".into(),
                },
            ),
            Op::Shutdown => break,
        }
    }
    agent_tools.shutdown().await;
    emitter.emit(None, EventMsg::RunFinished);
}

impl OrchestratorHandle {
    /// Submits `question` and returns every event up to and including `TurnFinished`.
    /// Returns what arrived so far if the runtime stops early.
    pub async fn run_turn(&mut self, question: &str) -> Vec<Event> {
        let submit = Op::Submit {
            text: question.to_string(),
            mode: crate::protocol::Mode::Normal,
            context_paths: Vec::new(),
            options: crate::protocol::TurnOptions::default(),
        };
        if self.ops.send(submit).await.is_err() {
            return Vec::new();
        }
        self.finish_turn().await
    }

    /// Every event up to and including the running turn's `TurnFinished`.
    pub async fn finish_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let mut batch = Vec::with_capacity(256);
        loop {
            batch.clear();
            if self.events.recv_many(&mut batch, 256).await == 0 {
                return events;
            }
            let mut drained = batch.drain(..);
            for event in drained.by_ref() {
                let finished = matches!(event.msg, EventMsg::TurnFinished { .. });
                events.push(event);
                if finished {
                    // Events after TurnFinished belong to what comes next; none exist yet
                    // because the runtime waits for the next op.
                    return events;
                }
            }
        }
    }

    /// Stops the runtime and returns the events it emitted while stopping.
    pub async fn shutdown(mut self) -> Vec<Event> {
        let _ = self.ops.send(Op::Shutdown).await;
        let mut events = Vec::new();
        while let Some(event) = self.events.recv().await {
            events.push(event);
        }
        let _ = self.task.await;
        events
    }
}
