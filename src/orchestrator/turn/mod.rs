//! One turn: agent rounds run in parallel until coordination settles, then the winner
//! presents. This file holds the driver and its event loop; `rounds` starts and judges
//! agent rounds, `ending` handles winners, presentation, timeout, cancel and the finish.

mod ending;
mod rounds;
mod workspaces;

use std::any::Any;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::FutureExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use super::agent_link::AgentLink;
use super::channel::{AgentSink, RoundEnd, TaskMsg};
use super::coordination::{Coordination, Rules};
use super::emitter::Emitter;
use super::inbox::HumanInbox;
use super::prompts::{FilesystemView, HistoryEntry, PromptContext};
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, EventMsg, Mode, Op, TurnOptions, TurnOutcome,
};
use crate::tools::ToolRouter;
use crate::workspace::{ContextRootSpec, Workspaces};

/// What every turn of a run shares.
pub struct RunContext {
    pub config: Arc<Config>,
    /// One per agent, config order.
    pub backends: Vec<Arc<dyn Backend>>,
    /// One per agent, config order.
    pub routers: Vec<Arc<dyn ToolRouter>>,
    /// Agents' workspaces, when the run has a project directory.
    pub workspaces: Option<Arc<Workspaces>>,
    pub roster: Vec<AgentInfo>,
}

pub struct TurnRequest {
    pub question: String,
    pub mode: Mode,
    pub options: TurnOptions,
    pub history: Vec<HistoryEntry>,
    /// Today's date as agents should see it.
    pub today: String,
    /// Paths attached to the question (`@path`), beside the config's context paths.
    pub attached: Vec<ContextRootSpec>,
}

pub struct TurnReport {
    pub final_answer: Option<String>,
    /// The front end asked to stop the runtime during this turn.
    pub shutdown: bool,
}

pub async fn run_turn(
    run: &RunContext,
    request: TurnRequest,
    emitter: &mut Emitter,
    ops: &mut mpsc::Receiver<Op>,
) -> TurnReport {
    Driver::new(run, request, emitter).run(ops).await
}

struct Running {
    cancel: CancellationToken,
    handle: JoinHandle<()>,
}

impl Running {
    /// Runs `work` on its own task and hands its result to `on_end`. A panic inside `work`
    /// arrives as `Err(message)`, so the driver always hears back; a cancelled task reports
    /// nothing.
    fn spawn<T, F>(work: F, on_end: impl FnOnce(Result<T, String>) + Send + 'static) -> Self
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let cancel = CancellationToken::new();
        let token = cancel.clone();
        let handle = tokio::spawn(async move {
            tokio::select! {
                result = AssertUnwindSafe(work).catch_unwind() => {
                    on_end(result.map_err(|panic| panic_message(panic.as_ref())));
                }
                () = token.cancelled() => {}
            }
        });
        Self { cancel, handle }
    }

    fn stop(self) {
        self.cancel.cancel();
        self.handle.abort();
    }
}

/// `from + duration`, or a year from `from` if that does not fit in an `Instant`.
fn deadline_after(from: Instant, duration: Duration) -> Instant {
    from.checked_add(duration)
        .or_else(|| from.checked_add(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(from)
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".into());
    format!("internal error (a bug in massgen, please report it): {detail}")
}

enum Phase {
    Coordinating,
    Presenting {
        winner: AgentId,
        label: AnswerLabel,
        started: Instant,
        deadline: Instant,
    },
    Done,
}

struct Driver<'a> {
    run: &'a RunContext,
    request: TurnRequest,
    emitter: &'a mut Emitter,
    coordination: Coordination,
    tx: mpsc::UnboundedSender<TaskMsg>,
    rx: mpsc::UnboundedReceiver<TaskMsg>,
    answers_version: watch::Sender<u64>,
    rounds: HashMap<AgentId, Running>,
    presentation: Option<Running>,
    last_end: HashMap<AgentId, RoundEnd>,
    inbox: HumanInbox,
    phase: Phase,
    outcome: Option<TurnOutcome>,
    timed_out: bool,
    final_answer: Option<String>,
    winner: Option<AgentId>,
    shutdown: bool,
    started: Instant,
    /// When the orchestrator timeout fires.
    deadline: Instant,
    /// The config's context paths and those attached to the question.
    context_paths: Vec<ContextRootSpec>,
}

impl<'a> Driver<'a> {
    fn new(run: &'a RunContext, request: TurnRequest, emitter: &'a mut Emitter) -> Self {
        let context_paths = run
            .workspaces
            .iter()
            .flat_map(|workspaces| workspaces.layout().context.iter().cloned())
            .chain(request.attached.iter().cloned())
            .collect();
        let rules = Rules {
            max_new_answers_per_agent: run.config.orchestrator.max_new_answers_per_agent,
            novelty: run.config.orchestrator.answer_novelty_requirement,
        };
        let ids = run
            .config
            .agents
            .iter()
            .map(|agent| agent.id.clone())
            .collect();
        let (tx, rx) = mpsc::unbounded_channel();
        Self {
            run,
            context_paths,
            request,
            emitter,
            coordination: Coordination::new(ids, rules),
            tx,
            rx,
            answers_version: watch::channel(0).0,
            rounds: HashMap::new(),
            presentation: None,
            last_end: HashMap::new(),
            inbox: HumanInbox::default(),
            phase: Phase::Coordinating,
            outcome: None,
            timed_out: false,
            final_answer: None,
            winner: None,
            shutdown: false,
            started: Instant::now(),
            deadline: deadline_after(Instant::now(), run.config.timeouts.orchestrator),
        }
    }

    fn emit(&mut self, agent: Option<&AgentId>, msg: EventMsg) {
        self.emitter.emit(agent, msg);
    }

    fn status(&mut self, agent: &AgentId, status: AgentStatus) {
        self.emit(Some(agent), EventMsg::AgentStatus { status });
    }

    async fn run(mut self, ops: &mut mpsc::Receiver<Op>) -> TurnReport {
        let log_dir = self.emitter.log().map(|log| log.dir().to_path_buf());
        self.emit(
            None,
            EventMsg::TurnStarted {
                question: self.request.question.clone(),
                mode: self.request.mode,
                agents: self.run.roster.clone(),
                log_dir,
                options: self.request.options.clone(),
            },
        );
        for agent in self.coordination.agents().to_vec() {
            self.status(&agent, AgentStatus::Waiting);
        }
        self.start_due_rounds();
        let coordination_deadline = self.deadline;
        loop {
            if matches!(self.phase, Phase::Coordinating) && self.coordination.is_settled() {
                self.conclude_coordination();
            }
            let presentation_deadline = match &self.phase {
                Phase::Coordinating => None,
                Phase::Presenting { deadline, .. } => Some(*deadline),
                Phase::Done => break,
            };
            let coordinating = presentation_deadline.is_none();
            tokio::select! {
                Some(msg) = self.rx.recv() => self.handle(msg),
                op = ops.recv() => self.handle_op(op),
                () = sleep_until(coordination_deadline), if coordinating => self.on_timeout(),
                () = sleep_until(presentation_deadline.unwrap_or(coordination_deadline)),
                    if !coordinating => self.on_presentation_timeout(),
            }
        }
        self.save_final_answer().await;
        self.save_final_workspace().await;
        if self.outcome() != TurnOutcome::Completed {
            self.save_partial_workspaces().await;
        }
        self.finish()
    }

    fn timeout(&self) -> Duration {
        self.run.config.timeouts.orchestrator
    }

    fn prompt_context(&self, agent_index: usize) -> PromptContext<'_> {
        let config = &self.run.config;
        PromptContext {
            question: &self.request.question,
            history: &self.request.history,
            system_message: config.agents[agent_index].system_message.as_deref(),
            voting_sensitivity: config.orchestrator.voting_sensitivity,
            novelty: config.orchestrator.answer_novelty_requirement,
            today: &self.request.today,
            filesystem: self.run.workspaces.as_ref().and_then(|workspaces| {
                let dirs = workspaces.dirs(agent_index)?;
                Some(FilesystemView {
                    workspace: &dirs.workspace,
                    temp: &dirs.temp,
                    context: &self.context_paths,
                    peers: workspaces
                        .peers()
                        .map(|(anon, dirs)| (anon, dirs.workspace.as_path()))
                        .collect(),
                })
            }),
        }
    }

    /// What an agent's task (round or presentation) needs, for the agent at `index`.
    fn agent_link(&self, agent: &AgentId, index: usize) -> AgentLink {
        AgentLink {
            sink: AgentSink::new(agent.clone(), self.tx.clone()),
            backend: Arc::clone(&self.run.backends[index]),
            router: Arc::clone(&self.run.routers[index]),
            inbox: self.inbox.clone(),
            spent: Mutex::default(),
        }
    }

    fn agent_index(&self, agent: &AgentId) -> Option<usize> {
        self.run
            .config
            .agents
            .iter()
            .position(|candidate| &candidate.id == agent)
    }

    fn handle(&mut self, msg: TaskMsg) {
        match msg {
            TaskMsg::Event { agent, msg } => self.emit(Some(&agent), msg),
            TaskMsg::Propose { agent, call, reply } => {
                let verdict = self.judge(&agent, call);
                let _ = reply.send(verdict);
                self.start_due_rounds();
            }
            TaskMsg::RoundFinished { agent, end } => self.on_round_finished(agent, end),
            TaskMsg::Presented { result } => self.on_presented(result),
        }
    }

    fn handle_op(&mut self, op: Option<Op>) {
        match op {
            Some(Op::Cancel) => self.cancel(),
            Some(Op::Step | Op::ListPlans | Op::AnswerQuestion { .. }) => {}
            Some(Op::InjectHumanInput { text }) => {
                self.inbox.push(text.clone());
                self.emit(None, EventMsg::HumanInputQueued { text });
            }
            Some(Op::Submit { .. }) => self.emit(
                None,
                EventMsg::Warning {
                    message: "a turn is already running; wait for it to finish or cancel it".into(),
                },
            ),
            Some(Op::ClearHistory) => self.emit(
                None,
                EventMsg::Warning {
                    message: "the history cannot be cleared while a turn runs; cancel it first"
                        .into(),
                },
            ),
            Some(Op::Shutdown) | None => {
                self.shutdown = true;
                self.cancel();
            }
        }
    }
}
