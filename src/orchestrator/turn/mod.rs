//! One turn: agent rounds run in parallel until coordination settles, then the winner
//! presents. This file holds the driver and its event loop; `settings` decides how the turn
//! runs, `rounds` starts and judges agent rounds, `questions` answers `ask_others`,
//! `plan` makes and carries out saved plans, `ending` handles winners, presentation,
//! timeout, cancel and the finish.

mod attempts;
mod budget;
mod dispatch;
mod ending;
mod gate;
mod links;
mod override_final;
mod plan;
mod questions;
mod rounds;
pub mod settings;
mod workspaces;

use std::any::Any;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use super::broadcast::Board;
use super::channel::{RoundEnd, TaskMsg, TaskSender, task_channel};
use super::coordination::Coordination;
use super::emitter::Emitter;
use super::inbox::HumanInbox;
use super::prompts::HistoryEntry;
use super::turn_tools::{Gate, TurnTools};
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnonymousMapping, AnswerLabel, EventMsg, Mode, Op,
    TaskProgress, TurnOptions, TurnOutcome,
};
use crate::tools::ToolRouter;
use crate::workspace::{ContextRootSpec, Workspaces};
pub use plan::{PlanTurn, list as list_plans};
use settings::TurnSettings;

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
    /// The project directory, whose `.massgen/plans/` keeps saved plans; `None` when the
    /// run has none (tests without tools).
    pub project_dir: Option<std::path::PathBuf>,
    /// Someone can answer agents' questions (a terminal, not automation).
    pub human: bool,
}

pub struct TurnRequest {
    /// The question as the user asked it (front ends, history, logs).
    pub question: String,
    /// What agents read as the ORIGINAL MESSAGE: the question, or the planning or execution
    /// prompt around it.
    pub prompt: String,
    pub mode: Mode,
    pub options: TurnOptions,
    /// The saved plan this turn makes or carries out.
    pub plan: Option<PlanTurn>,
    pub history: Vec<HistoryEntry>,
    /// Today's date as agents should see it.
    pub today: String,
    /// Paths attached to the question (`@path`), beside the config's context paths.
    pub attached: Vec<ContextRootSpec>,
    /// Warnings about how the question was prepared, shown once the turn has started.
    pub notes: Vec<String>,
}

pub struct TurnReport {
    /// As `TurnFinished` named it.
    pub winner: Option<AgentId>,
    pub final_answer: Option<String>,
    /// The plan a planning turn left ready, when one did.
    pub ready_plan: Option<String>,
    pub outcome: TurnOutcome,
    /// The front end asked to stop the runtime during this turn.
    pub shutdown: bool,
    /// Every answer of the turn (label, author, text), for an override after it ended.
    pub answers: Vec<(AnswerLabel, AgentId, String)>,
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
    /// The winner checks its presented answer (`content`) before it goes to the user.
    Evaluating {
        winner: AgentId,
        label: AnswerLabel,
        content: String,
        fallback: bool,
        deadline: Instant,
    },
    Done,
}

struct Driver<'a> {
    run: &'a RunContext,
    request: TurnRequest,
    emitter: &'a mut Emitter,
    coordination: Coordination,
    tx: TaskSender,
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
    settings: TurnSettings,
    /// Each agent's turn tools, config order (empty for agents not taking part).
    turn_tools: Vec<TurnTools>,
    gate: Arc<Gate>,
    /// Planning mode blocks tools this turn (the decision was irreversible).
    gated: bool,
    /// Each agent's system message for this turn (its own, plus plan-execution guidance).
    system_messages: Vec<Option<String>>,
    board: Board,
    /// Agents' tool calls waiting for a question to close.
    waiting: HashMap<String, Vec<tokio::sync::oneshot::Sender<Result<serde_json::Value, String>>>>,
    /// Peers answering questions in side calls; stopped when the turn ends.
    side_calls: Vec<JoinHandle<()>>,
    /// Each agent's task progress when its latest answer was accepted.
    answer_progress: HashMap<AgentId, TaskProgress>,
    ready_plan: Option<String>,
    /// The winner's presentation call produced the final answer (not its stored answer).
    presented_live: bool,
    budget: budget::Budget,
    /// This turn's attempt (1 until the winner sends an answer back) and how many it may
    /// have (`1 + coordination.max_orchestration_restarts`).
    attempt: u32,
    max_attempts: u32,
    /// `<PREVIOUS ATTEMPT FEEDBACK>` for every round of a later attempt.
    attempt_feedback: Option<String>,
    /// The winner sent the answer back; the next attempt starts once the event loop turns.
    pending_restart: Option<attempts::Restart>,
}

impl<'a> Driver<'a> {
    fn new(run: &'a RunContext, request: TurnRequest, emitter: &'a mut Emitter) -> Self {
        let context_paths = run
            .workspaces
            .iter()
            .flat_map(|workspaces| workspaces.layout().context.iter().cloned())
            .chain(request.attached.iter().cloned())
            .collect();
        let settings = settings::resolve(&run.config, request.mode, &request.options, run.human);
        let gate = Arc::new(Gate::default());
        let turn_tools = links::build_turn_tools(run, &settings, &gate, request.plan.as_ref());
        let system_messages = run
            .config
            .agents
            .iter()
            .map(|agent| {
                plan::system_message(agent.system_message.as_deref(), request.plan.as_ref())
            })
            .collect();
        let (tx, rx) = task_channel();
        Self {
            run,
            context_paths,
            request,
            emitter,
            coordination: Coordination::among(
                AnonymousMapping::new(run.config.agents.iter().map(|agent| &agent.id)),
                settings.participants.clone(),
                settings.rules,
            ),
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
            settings,
            turn_tools,
            gate,
            gated: false,
            system_messages,
            board: Board::default(),
            waiting: HashMap::new(),
            side_calls: Vec::new(),
            answer_progress: HashMap::new(),
            ready_plan: None,
            presented_live: false,
            budget: budget::Budget::default(),
            attempt: 1,
            max_attempts: run
                .config
                .orchestrator
                .coordination
                .max_orchestration_restarts
                .saturating_add(1),
            attempt_feedback: None,
            pending_restart: None,
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
        let notes = std::mem::take(&mut self.settings.notes)
            .into_iter()
            .chain(std::mem::take(&mut self.request.notes));
        for message in notes {
            self.emit(None, EventMsg::Warning { message });
        }
        for agent in self.coordination.agents().to_vec() {
            self.status(&agent, AgentStatus::Waiting);
        }
        self.begin_plan().await;
        if self.decide_planning_mode(ops).await {
            if self.run.config.orchestrator.skip_coordination_rounds {
                self.skip_coordination();
            } else {
                self.start_due_rounds();
            }
        }
        loop {
            if let Some(restart) = self.pending_restart.take() {
                self.begin_next_attempt(restart).await;
            }
            if matches!(self.phase, Phase::Coordinating) && self.coordination.is_settled() {
                self.conclude_coordination();
            }
            let coordination_deadline = self.deadline;
            let presentation_deadline = match &self.phase {
                Phase::Coordinating => None,
                Phase::Presenting { deadline, .. } | Phase::Evaluating { deadline, .. } => {
                    Some(*deadline)
                }
                Phase::Done => break,
            };
            let coordinating = presentation_deadline.is_none();
            let question_deadline = self.board.next_deadline();
            let front_end_keeps_up = self.emitter.has_room();
            tokio::select! {
                Some(msg) = self.rx.recv(), if front_end_keeps_up => self.handle(msg),
                () = self.emitter.room(), if !front_end_keeps_up => {}
                op = ops.recv() => self.handle_op(op),
                () = sleep_until(coordination_deadline), if coordinating => self.on_timeout(),
                () = sleep_until(presentation_deadline.unwrap_or(coordination_deadline)),
                    if !coordinating => self.on_presentation_timeout(),
                () = sleep_until(question_deadline.unwrap_or(coordination_deadline)),
                    if question_deadline.is_some() => self.expire_questions(),
            }
        }
        self.close_questions();
        self.save_final_answer().await;
        self.save_final_workspace().await;
        if self.outcome() != TurnOutcome::Completed {
            self.save_partial_workspaces().await;
        }
        self.conclude_plan().await;
        self.finish()
    }

    fn timeout(&self) -> Duration {
        self.run.config.timeouts.orchestrator
    }

    fn agent_index(&self, agent: &AgentId) -> Option<usize> {
        self.run
            .config
            .agents
            .iter()
            .position(|candidate| &candidate.id == agent)
    }
}

/// Later than any turn lasts.
const FAR_FUTURE: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
