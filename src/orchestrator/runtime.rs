//! The orchestrator runtime: a background task that takes `Op`s, runs one turn at a time,
//! keeps the conversation history between turns, and emits every `Event`.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::approvals::RunApprovals;
use super::emitter::Emitter;
use super::override_after::{LastTurn, override_last};
use super::prompts::HistoryEntry;
use super::replace_agents::roster;
use super::run_logs::Logs;
use super::submit::{self, LogPlace, Submission};
use super::toolset::{self, ToolSetup};
use super::turn::{PlanTurn, RunContext, TurnRequest, run_turn};
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{EventMsg, Mode, Op, TurnOptions, TurnOutcome};
use crate::redact::Redactor;
use crate::session::{RunLogDir, SessionInfo, TurnEnding};

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
    /// Someone can answer agents' questions (`coordination.broadcast: human`): a terminal
    /// front end, not automation or a pipe.
    pub human: bool,
    /// The steering inbox (`--inbox-dir`, made and absolute) every turn polls while it
    /// runs; `None` steers nothing.
    pub inbox_dir: Option<std::path::PathBuf>,
    /// The run's secrets, replaced in every event before it is logged or shown.
    pub redactor: Redactor,
    /// Earlier questions and answers the first turn continues from (an API client's
    /// conversation); `resume` replaces them when given.
    pub history: Vec<HistoryEntry>,
    /// Loads the agents `Op::ReplaceAgents` asks for; `None` refuses it.
    pub agents_loader: Option<super::replace_agents::AgentsLoader>,
    /// How asks are answered without a person (`--approval-policy`, `--approval-dir`).
    pub approvals: super::approvals::ApprovalOptions,
}

/// The front end's side of a running orchestrator.
pub struct OrchestratorHandle {
    pub ops: mpsc::Sender<Op>,
    pub events: super::event_queue::EventReceiver,
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
    let (events_tx, events_rx) = super::event_queue::event_channel();
    let emitter = Emitter::new(events_tx).redacting(options.redactor.clone());
    let task = tokio::spawn(run((config, backends, tools), options, ops_rx, emitter));
    OrchestratorHandle {
        ops: ops_tx,
        events: events_rx,
        task,
    }
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
    let project_dir = match &tools {
        ToolSetup::FromConfig { project_dir } => Some(project_dir.clone()),
        ToolSetup::Shared(_) => None,
    };
    let mut agent_tools =
        toolset::prepare(tools, (&config, &backends), &roster, &mut emitter).await;
    if !agent_tools.failed.is_empty() {
        // A tool the config promised the model is missing: the run does not start.
        for (agent, message) in std::mem::take(&mut agent_tools.failed) {
            tracing::error!(agent = %agent, "{message}");
            emitter.emit(Some(&agent), EventMsg::AgentError { message });
        }
        agent_tools.shutdown().await;
        emitter.emit(None, EventMsg::RunFinished);
        return;
    }
    let (approvals, warnings) = RunApprovals::new(
        &config,
        options.approvals.clone(),
        options.human,
        project_dir.as_deref(),
    );
    for (agent, message) in warnings {
        emitter.emit(Some(&agent), EventMsg::Warning { message });
    }
    let mut context = RunContext {
        config,
        backends,
        routers: agent_tools.routers.clone(),
        workspaces: agent_tools.workspaces.clone(),
        code_tools: agent_tools.code_tools.clone(),
        roster,
        project_dir,
        human: options.human,
        inbox_dir: options.inbox_dir,
        tool_calls_made: agent_tools.routers.iter().map(|_| Arc::default()).collect(),
        kept_personas: std::sync::Mutex::default(),
        approvals,
    };
    let mut logs = Logs::new(
        options.logs,
        options.session_registry,
        options.redactor.clone(),
    );
    let mut history: Vec<HistoryEntry> = options.history;
    let mut turn_number = 0;
    let mut last_turn: Option<LastTurn> = None;
    if let Some(session) = options.resume {
        turn_number = session.next_turn() - 1;
        history = session
            .history_turns()
            .map(|turn| HistoryEntry {
                question: turn.question.clone(),
                answer: turn.answer.clone(),
            })
            .collect();
        logs.continue_session(session.store());
        emitter.emit(None, session.resumed_event());
        if let Some(notice) = &session.notice {
            emitter.emit(
                None,
                EventMsg::Warning {
                    message: notice.clone(),
                },
            );
        }
    }
    while let Some(op) = ops.recv().await {
        match op {
            Op::Submit {
                text,
                mode,
                context_paths,
                options,
            } => {
                let mut next = Some(Submission {
                    text,
                    mode,
                    context_paths,
                    options,
                });
                let mut stop = false;
                // A planning turn asked to execute its plan runs the execution next.
                while let Some(submission) = next.take() {
                    turn_number += 1;
                    let mut turn = TurnState {
                        context: &context,
                        logs: &mut logs,
                        emitter: &mut emitter,
                        history: &mut history,
                        number: turn_number,
                    };
                    let report = turn.run(&submission, &mut ops).await;
                    if report.last.is_some() {
                        last_turn = report.last;
                    }
                    if report.shutdown {
                        stop = true;
                        break;
                    }
                    next = report
                        .ready_plan
                        .filter(|_| submission.options.auto_execute)
                        .map(|plan| Submission {
                            text: String::new(),
                            mode: Mode::Execute,
                            // What the user attached to plan it is granted to carry it out.
                            context_paths: submission.context_paths.clone(),
                            options: TurnOptions {
                                plan: Some(plan),
                                ..submission.options.clone()
                            },
                        });
                }
                if stop {
                    break;
                }
            }
            Op::Cancel | Op::Step => {}
            Op::ListPlans => emitter.emit(
                None,
                EventMsg::PlansListed {
                    plans: super::turn::list_plans(context.project_dir.as_deref()),
                },
            ),
            Op::AnswerNow => emitter.emit(
                None,
                EventMsg::Warning {
                    message: "answer now: no turn is running".into(),
                },
            ),
            Op::AnswerQuestion { .. } => emitter.emit(
                None,
                EventMsg::Warning {
                    message: "no turn is running, so no agent is waiting for that answer".into(),
                },
            ),
            Op::OverrideFinal { label } => {
                override_last(
                    last_turn.as_mut(),
                    &label,
                    &mut history,
                    &mut emitter,
                    &logs,
                )
                .await;
            }
            Op::ClearHistory => {
                history.clear();
                last_turn = None;
                logs.history_cleared(turn_number + 1, &mut emitter).await;
                tracing::debug!("conversation history cleared");
                emitter.emit(None, EventMsg::HistoryCleared);
            }
            // A call waits only while its turn runs: the turn answers it or it is gone.
            Op::AnswerApproval { .. } => {}
            Op::InjectHumanInput { .. } => emitter.emit(
                None,
                EventMsg::Warning {
                    message: "no turn is running, so there is nobody to pass the input to".into(),
                },
            ),
            Op::ReplaceAgents { yaml } => {
                super::replace_agents::replace(
                    &yaml,
                    options.agents_loader.as_ref(),
                    &mut context,
                    &mut agent_tools,
                    &mut emitter,
                )
                .await;
            }
            Op::Shutdown => break,
        }
    }
    agent_tools.shutdown().await;
    emitter.emit(None, EventMsg::RunFinished);
}

/// One submitted question's turn, with what it shares with the runtime.
struct TurnState<'a> {
    context: &'a RunContext,
    logs: &'a mut Logs,
    emitter: &'a mut Emitter,
    history: &'a mut Vec<HistoryEntry>,
    number: u32,
}

struct Ran {
    shutdown: bool,
    /// The plan a planning turn that completed left ready.
    ready_plan: Option<String>,
    /// What an override after the turn needs (`None` for a refused question).
    last: Option<LastTurn>,
}

impl TurnState<'_> {
    async fn run(&mut self, submission: &Submission, ops: &mut mpsc::Receiver<Op>) -> Ran {
        let place = LogPlace {
            session_id: self.logs.run_name(),
            log_dir: self.logs.turn_dir(self.number),
        };
        let prepared = match submit::prepare(self.context, submission, self.number, place).await {
            Ok(prepared) => prepared,
            Err(message) => {
                self.refuse(submission, message);
                return Ran {
                    shutdown: false,
                    ready_plan: None,
                    last: None,
                };
            }
        };
        let context = self.context;
        toolset::begin_turn(
            &context.routers,
            context.workspaces.as_ref(),
            &prepared.attached,
            context
                .config
                .orchestrator
                .coordination
                .enable_memory_filesystem_mode,
        )
        .await;
        let log = self.logs.open_turn(self.number, self.emitter).await;
        let log_dir = log.as_ref().map(|log| log.dir().to_path_buf());
        self.logs
            .begin_turn(self.number, prepared.question.clone(), log_dir)
            .await;
        self.emitter.begin_turn(self.number, log);
        let question = prepared.question.clone();
        let mut options = submission.options.clone();
        if let Some(id) = prepared.plan.as_ref().and_then(PlanTurn::executed_plan) {
            // `latest` and paths name the plan they resolved to from here on.
            options.plan = Some(id.to_string());
        }
        let request = TurnRequest {
            question: prepared.question,
            prompt: prepared.prompt,
            mode: submission.mode,
            options,
            plan: prepared.plan,
            history: self.history.clone(),
            today: crate::local_time::now().date().to_string(),
            attached: prepared.attached,
            attachments: prepared.attachments,
            notes: prepared.notes,
        };
        let report = run_turn(context, request, self.emitter, ops).await;
        // Commands the agents started die with the turn, even those still being cancelled.
        if let Some(workspaces) = &context.workspaces {
            for (_, dirs) in workspaces.peers() {
                crate::sandbox::end_commands_in(&dirs.workspace);
            }
        }
        let mut log_dir = None;
        if let Some(log) = self.emitter.end_turn() {
            log_dir = Some(log.dir().to_path_buf());
            let ending = TurnEnding {
                task: question.clone(),
                outcome: report.outcome,
                winner: report.winner.as_ref().map(ToString::to_string),
                answer: report.final_answer.clone(),
            };
            let saved = self
                .logs
                .finish_turn(log, self.number, &context.config, ending)
                .await;
            if let Err(problem) = saved {
                let kept = if report.final_answer.is_some() {
                    "; the answer shown stays in this run's conversation"
                } else {
                    ""
                };
                self.emitter.emit(
                    None,
                    EventMsg::Warning {
                        message: format!("{problem}{kept}"),
                    },
                );
            }
        }
        let mut last = LastTurn {
            number: self.number,
            question: question.clone(),
            voted: report.winner.is_some(),
            answers: report.answers,
            in_history: None,
            log_dir,
        };
        if let Some(answer) = report.final_answer {
            last.in_history = Some(self.history.len());
            self.history.push(HistoryEntry { question, answer });
        }
        Ran {
            last: Some(last),
            shutdown: report.shutdown,
            // A plan made by a turn that timed out is kept, but not run unasked.
            ready_plan: report
                .ready_plan
                .filter(|_| report.outcome == TurnOutcome::Completed),
        }
    }

    /// A question that cannot run still gets a turn (and its number) that fails at once,
    /// so every front end hears why and stops waiting. Nothing of it is logged.
    fn refuse(&mut self, submission: &Submission, message: String) {
        tracing::warn!(%message, "question refused");
        self.emitter.begin_turn(self.number, None);
        self.emitter.emit(
            None,
            EventMsg::TurnStarted {
                question: submission.text.clone(),
                mode: submission.mode,
                agents: self.context.roster.clone(),
                log_dir: None,
                options: submission.options.clone(),
            },
        );
        self.emitter.emit(None, EventMsg::Warning { message });
        self.emitter.emit(
            None,
            EventMsg::TurnFinished {
                outcome: TurnOutcome::Failed,
                winner: None,
                duration_ms: 0,
            },
        );
        self.emitter.end_turn();
    }
}
