//! One turn: agent rounds run in parallel until coordination settles, then the winner
//! presents. This file holds the driver and its event loop; `settings` decides how the turn
//! runs, `rounds` starts and judges agent rounds (their bookkeeping is `round_book`),
//! `questions` answers `ask_others`, `plan` makes and carries out saved plans, `ending`
//! handles winners, presentation, timeout, cancel and the finish. The driver's state is
//! grouped by the file that changes it: `links` (what agents' tasks are handed), `gate`,
//! `round_book`, `questions`, `budget`, `attempts` and `ending` each own one part.

mod answer_now;
mod attempts;
mod budget;
mod chairman;
mod council;
mod council_log;
mod criteria;
mod debate;
mod debate_calls;
mod debate_log;
mod dispatch;
mod ending;
mod gate;
mod links;
mod override_final;
mod personas;
mod plan;
mod questions;
mod round_book;
mod rounds;
mod running;
pub mod settings;
mod side_call;
mod stage_round;
mod subtasks;
mod workspaces;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use super::channel::{TaskMsg, TaskSender, task_channel};
use super::coordination::Coordination;
use super::emitter::Emitter;
use super::prompts::HistoryEntry;
use super::steering::SteeringPoller;
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnonymousMapping, AnswerLabel, EventMsg, Mode, Op,
    TurnOptions, TurnOutcome,
};
use crate::tools::ToolRouter;
use crate::workspace::{ContextRootSpec, Workspaces};
use attempts::Attempts;
use budget::Budget;
use ending::Ending;
use gate::PlanningGate;
use links::TaskKit;
pub use plan::{PlanTurn, list as list_plans};
use questions::Questions;
use round_book::RoundBook;
use running::Running;
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
    /// The steering inbox (`--inbox-dir`) each turn polls while it runs.
    pub inbox_dir: Option<std::path::PathBuf>,
    /// One per agent, config order: its code-based tools (`enable_code_based_tools`).
    pub code_tools: Vec<Option<Arc<crate::mcp::code_tools::CodeTools>>>,
    /// One per agent, config order: its tool calls so far in the run (its debug delay).
    pub tool_calls_made: Vec<Arc<std::sync::atomic::AtomicU32>>,
    /// The personas later turns reuse (`persona_generator.persist_across_turns`).
    pub kept_personas: std::sync::Mutex<Option<crate::orchestrator::personas::Personas>>,
    /// Each agent's permission gate, the run's grants and the asks waiting for an answer.
    pub approvals: crate::orchestrator::approvals::RunApprovals,
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
    /// The images and PDFs among the `@path`s, sent with every agent's question.
    pub attachments: Vec<crate::protocol::Attachment>,
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

/// `from + duration`, or a year from `from` if that does not fit in an `Instant`.
fn deadline_after(from: Instant, duration: Duration) -> Instant {
    from.checked_add(duration)
        .or_else(|| from.checked_add(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(from)
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
    settings: TurnSettings,
    coordination: Coordination,
    tx: TaskSender,
    rx: mpsc::UnboundedReceiver<TaskMsg>,
    phase: Phase,
    /// The winner's presentation or check, while it runs.
    presentation: Option<Running>,
    started: Instant,
    /// When the orchestrator timeout fires.
    deadline: Instant,
    task_kit: TaskKit,
    planning_gate: PlanningGate,
    rounds: RoundBook,
    questions: Questions,
    budget: Budget,
    attempts: Attempts,
    ending: Ending,
    /// Each agent's generated persona this turn (`persona_generator`), by config index.
    personas: Vec<Option<crate::orchestrator::personas::GeneratedPersona>>,
    /// Decomposition mode: each agent's subtask, config order (empty in voting mode).
    subtasks: Vec<Option<String>>,
    /// The council strategy's stages, when the turn runs as a council.
    council: Option<council::CouncilRun>,
    /// The steering inbox, polled while the turn runs.
    steering: Option<SteeringPoller>,
}

impl<'a> Driver<'a> {
    fn new(run: &'a RunContext, request: TurnRequest, emitter: &'a mut Emitter) -> Self {
        let settings = settings::resolve(&run.config, request.mode, &request.options, run.human);
        let planning_gate = PlanningGate::default();
        let task_kit = TaskKit::new(run, &request, &settings, &planning_gate);
        let (tx, rx) = task_channel();
        let settings_strategy = settings.strategy;
        Self {
            run,
            request,
            emitter,
            coordination: Coordination::among(
                AnonymousMapping::new(run.config.agents.iter().map(|agent| &agent.id)),
                settings.participants.clone(),
                settings.rules.clone(),
            ),
            settings,
            tx,
            rx,
            phase: Phase::Coordinating,
            presentation: None,
            started: Instant::now(),
            deadline: deadline_after(Instant::now(), run.config.timeouts.orchestrator),
            task_kit,
            planning_gate,
            rounds: RoundBook::default(),
            questions: Questions::default(),
            budget: Budget::default(),
            attempts: Attempts::new(
                run.config
                    .orchestrator
                    .coordination
                    .max_orchestration_restarts,
            ),
            ending: Ending::default(),
            personas: Vec::new(),
            subtasks: Vec::new(),
            council: match settings_strategy {
                crate::protocol::Strategy::Council => Some(council::CouncilRun::default()),
                crate::protocol::Strategy::Debate => Some(council::CouncilRun::debating(
                    run.config.orchestrator.debate,
                )),
                crate::protocol::Strategy::Vote => None,
            },
            steering: run.inbox_dir.clone().map(SteeringPoller::new),
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
        self.warn_agent_cli_permissions();
        for agent in self.coordination.agents().to_vec() {
            self.status(&agent, AgentStatus::Waiting);
        }
        self.announce_attachments();
        self.begin_plan().await;
        if self.assign_personas(ops).await
            && self.decide_planning_mode(ops).await
            && self.settle_criteria(ops).await
            && self.assign_subtasks(ops).await
        {
            if self.run.config.orchestrator.skip_coordination_rounds {
                self.skip_coordination();
            } else {
                self.start_due_rounds();
            }
        }
        loop {
            if let Some(restart) = self.attempts.pending_restart.take() {
                self.begin_next_attempt(restart).await;
            }
            if matches!(self.phase, Phase::Coordinating) && self.coordination.is_settled() {
                self.conclude_coordination();
            }
            self.run_critic_if_due(ops).await;
            let coordination_deadline = self.deadline;
            let presentation_deadline = match &self.phase {
                Phase::Coordinating => None,
                Phase::Presenting { deadline, .. } | Phase::Evaluating { deadline, .. } => {
                    Some(*deadline)
                }
                Phase::Done => break,
            };
            let coordinating = presentation_deadline.is_none();
            let question_deadline = self.questions.next_deadline();
            let front_end_keeps_up = self.emitter.has_room();
            let steering_due = self.steering.as_ref().map(SteeringPoller::due);
            tokio::select! {
                Some(msg) = self.rx.recv(), if front_end_keeps_up => self.handle(msg),
                () = self.emitter.room(), if !front_end_keeps_up => {}
                op = ops.recv() => self.handle_op(op),
                () = sleep_until(coordination_deadline), if coordinating => self.on_timeout(),
                () = sleep_until(presentation_deadline.unwrap_or(coordination_deadline)),
                    if !coordinating => self.on_presentation_timeout(),
                () = sleep_until(question_deadline.unwrap_or(coordination_deadline)),
                    if question_deadline.is_some() => self.expire_questions(),
                () = sleep_until(steering_due.unwrap_or(coordination_deadline)),
                    if steering_due.is_some() => self.poll_steering(),
            }
        }
        self.close_questions();
        self.save_final_answer().await;
        self.merge_memories_if_pending().await;
        self.save_final_workspace().await;
        if self.ending.outcome() != TurnOutcome::Completed {
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
