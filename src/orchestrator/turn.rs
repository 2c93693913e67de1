//! One turn: agent rounds run in parallel until coordination settles, then the winner
//! presents. Handles the orchestrator timeout, cancellation and shutdown.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use super::agent_round::{self, MAX_ATTEMPTS, RoundTask};
use super::channel::{AgentSink, RoundEnd, TaskMsg, Verdict};
use super::coordination::{Coordination, Rules, VoteOutcome, WinnerDecision};
use super::emitter::Emitter;
use super::inbox::HumanInbox;
use super::presentation::{self, PresentationTask};
use super::prompts::{self, HistoryEntry, Presentation, PromptContext};
use crate::backend::Backend;
use crate::config::Config;
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, EventMsg, Mode, Op, TimeoutScope, TurnOutcome,
};
use crate::tools::workflow::workflow_tools;
use crate::tools::{ToolRouter, WorkflowCall};

/// What every turn of a run shares.
pub struct RunContext {
    pub config: Arc<Config>,
    /// One per agent, config order.
    pub backends: Vec<Arc<dyn Backend>>,
    pub router: Arc<dyn ToolRouter>,
    pub roster: Vec<AgentInfo>,
}

pub struct TurnRequest {
    pub question: String,
    pub mode: Mode,
    pub history: Vec<HistoryEntry>,
    /// Today's date as agents should see it.
    pub today: String,
}

pub struct TurnReport {
    pub outcome: TurnOutcome,
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
    fn stop(self) {
        self.cancel.cancel();
        self.handle.abort();
    }
}

enum Phase {
    Coordinating,
    Presenting {
        winner: AgentId,
        label: AnswerLabel,
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
}

impl<'a> Driver<'a> {
    fn new(run: &'a RunContext, request: TurnRequest, emitter: &'a mut Emitter) -> Self {
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
            },
        );
        for agent in self.coordination.agents().to_vec() {
            self.status(&agent, AgentStatus::Waiting);
        }
        self.start_due_rounds();
        let coordination_deadline = self.started + self.timeout();
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
        }
    }

    fn agent_index(&self, agent: &AgentId) -> Option<usize> {
        self.run
            .config
            .agents
            .iter()
            .position(|candidate| &candidate.id == agent)
    }

    /// Starts a round for every live agent that has no round and no valid vote.
    fn start_due_rounds(&mut self) {
        if !matches!(self.phase, Phase::Coordinating) {
            return;
        }
        for agent in self.coordination.agents().to_vec() {
            if self.rounds.contains_key(&agent) || !self.coordination.needs_round(&agent) {
                continue;
            }
            let Some(index) = self.agent_index(&agent) else {
                continue;
            };
            let Some(view) = self.coordination.begin_round(&agent) else {
                continue;
            };
            if view.round > 1 {
                let reason = restart_reason(self.last_end.get(&agent)).to_string();
                self.emit(
                    Some(&agent),
                    EventMsg::AgentRestarted {
                        round: view.round,
                        reason,
                    },
                );
            }
            self.emit(
                Some(&agent),
                EventMsg::RoundStarted {
                    round: view.round,
                    answers_seen: view
                        .answers
                        .iter()
                        .map(|answer| answer.label.clone())
                        .collect(),
                    vote_only: view.vote_only,
                },
            );
            let mut tools = workflow_tools(&view.vote_options, view.vote_only);
            tools.extend(self.run.router.tools());
            let sink = AgentSink::new(agent.clone(), self.tx.clone());
            let task = RoundTask {
                sink: sink.clone(),
                backend: Arc::clone(&self.run.backends[index]),
                router: Arc::clone(&self.run.router),
                inbox: self.inbox.clone(),
                messages: prompts::round_messages(&self.prompt_context(index), &view),
                tools,
                vote_only: view.vote_only,
                answers_version: self.answers_version.subscribe(),
            };
            let cancel = CancellationToken::new();
            let token = cancel.clone();
            let handle = tokio::spawn(async move {
                let end = tokio::select! {
                    end = agent_round::run(task) => end,
                    () = token.cancelled() => RoundEnd::Cancelled,
                };
                sink.round_finished(end);
            });
            self.rounds.insert(agent, Running { cancel, handle });
        }
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

    fn judge(&mut self, agent: &AgentId, call: WorkflowCall) -> Verdict {
        if !self.rounds.contains_key(agent) || !matches!(self.phase, Phase::Coordinating) {
            return Verdict::Ignored;
        }
        match call {
            WorkflowCall::NewAnswer { content } => {
                match self.coordination.submit_answer(agent, &content) {
                    Ok(accepted) => {
                        self.emit(
                            Some(agent),
                            EventMsg::AnswerSubmitted {
                                label: accepted.label,
                                anon_id: accepted.anon,
                                content: content.trim().to_string(),
                            },
                        );
                        self.status(agent, AgentStatus::Answered);
                        self.answers_version.send_modify(|version| *version += 1);
                        Verdict::Accepted
                    }
                    Err(rejection) => Verdict::Rejected {
                        reason: rejection.reason,
                        message: rejection.message,
                    },
                }
            }
            WorkflowCall::Vote { agent_id, reason } => {
                match self.coordination.submit_vote(agent, &agent_id, &reason) {
                    Ok(VoteOutcome::Accepted {
                        target,
                        target_anon,
                        target_label,
                    }) => {
                        self.emit(
                            Some(agent),
                            EventMsg::VoteCast {
                                target,
                                target_anon,
                                target_label,
                                reason,
                            },
                        );
                        self.status(agent, AgentStatus::Voted);
                        Verdict::Accepted
                    }
                    Ok(VoteOutcome::Ignored { target }) => {
                        self.emit(
                            Some(agent),
                            EventMsg::VoteIgnored {
                                target,
                                reason,
                                why: "newer answers arrived after this round started".into(),
                            },
                        );
                        self.status(agent, AgentStatus::Restarting);
                        Verdict::Ignored
                    }
                    Err(rejection) => Verdict::Rejected {
                        reason: rejection.reason,
                        message: rejection.message,
                    },
                }
            }
        }
    }

    fn on_round_finished(&mut self, agent: AgentId, end: RoundEnd) {
        if self.rounds.remove(&agent).is_none() {
            return;
        }
        self.coordination.end_round(&agent);
        match &end {
            RoundEnd::Failed { message } => {
                let message = message.clone();
                self.emit(
                    Some(&agent),
                    EventMsg::AgentError {
                        message: message.clone(),
                    },
                );
                self.kill(&agent, format!("the model call failed: {message}"));
            }
            RoundEnd::Exhausted { detail, .. } => {
                let reason = format!(
                    "no valid `vote` or `new_answer` after {MAX_ATTEMPTS} attempts ({detail})"
                );
                self.kill(&agent, reason);
            }
            RoundEnd::NewAnswersSeen => self.status(&agent, AgentStatus::Restarting),
            RoundEnd::Answered | RoundEnd::Voted | RoundEnd::VoteIgnored | RoundEnd::Cancelled => {}
        }
        self.last_end.insert(agent, end);
        self.start_due_rounds();
    }

    fn kill(&mut self, agent: &AgentId, reason: String) {
        self.coordination.kill(agent);
        self.emit(Some(agent), EventMsg::AgentKilled { reason });
        self.status(agent, AgentStatus::Error);
    }

    fn handle_op(&mut self, op: Option<Op>) {
        match op {
            Some(Op::Cancel) => self.cancel(),
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
            Some(Op::Shutdown) | None => {
                self.shutdown = true;
                self.cancel();
            }
        }
    }

    fn stop_rounds(&mut self) -> Vec<AgentId> {
        let stopped: Vec<AgentId> = self.rounds.keys().cloned().collect();
        for (agent, running) in self.rounds.drain() {
            running.stop();
            self.coordination.end_round(&agent);
        }
        stopped
    }

    fn cancel(&mut self) {
        let mut interrupted = self.stop_rounds();
        if let Some(running) = self.presentation.take() {
            running.stop();
            interrupted.extend(self.winner.clone());
        }
        self.emit(None, EventMsg::Cancelled);
        for agent in self.coordination.agents().to_vec() {
            if interrupted.contains(&agent) {
                self.status(&agent, AgentStatus::Cancelled);
            }
        }
        self.outcome = Some(TurnOutcome::Cancelled);
        self.phase = Phase::Done;
    }

    fn on_timeout(&mut self) {
        let seconds = self.timeout().as_secs();
        self.timed_out = true;
        self.emit(
            None,
            EventMsg::Timeout {
                scope: TimeoutScope::Orchestrator,
                seconds,
            },
        );
        self.stop_rounds();
        for agent in self.coordination.unfinished_agents() {
            self.status(&agent, AgentStatus::TimedOut);
        }
        match self.coordination.decide_winner() {
            Some(decision) => self.announce_winner(decision, true),
            None => {
                self.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "no answers available: the orchestrator timed out after {seconds} s \
                             before any agent answered"
                        ),
                    },
                );
                self.phase = Phase::Done;
            }
        }
    }

    fn conclude_coordination(&mut self) {
        match self.coordination.decide_winner() {
            Some(decision) => self.announce_winner(decision, false),
            None => {
                self.emit(
                    None,
                    EventMsg::Warning {
                        message: "no agent produced an answer, so there is nothing to present"
                            .into(),
                    },
                );
                self.phase = Phase::Done;
            }
        }
    }

    /// Emits the winner and starts the presentation; `stored_answer_only` skips the model
    /// call and presents the winner's latest answer (used after a timeout).
    fn announce_winner(&mut self, decision: WinnerDecision, stored_answer_only: bool) {
        let winner = decision.winner.clone();
        let Some(winner_anon) = self.coordination.mapping().anon(&winner).cloned() else {
            self.phase = Phase::Done;
            return;
        };
        self.winner = Some(winner.clone());
        self.emit(
            Some(&winner),
            EventMsg::WinnerSelected {
                winner: winner.clone(),
                winner_anon: winner_anon.clone(),
                tally: decision.tally.clone(),
                is_tie: decision.is_tie,
                basis: decision.basis,
            },
        );
        let label = AnswerLabel::final_presentation(&winner_anon);
        self.emit(
            Some(&winner),
            EventMsg::FinalPresentationStarted {
                label: label.clone(),
            },
        );
        self.status(&winner, AgentStatus::Presenting);
        self.phase = Phase::Presenting {
            winner: winner.clone(),
            label,
            deadline: Instant::now() + self.timeout(),
        };
        let index = self.agent_index(&winner);
        match index {
            Some(index) if !stored_answer_only && !self.coordination.is_killed(&winner) => {
                self.spawn_presentation(index, &winner, &decision);
            }
            _ => self.present_stored_answer(),
        }
    }

    fn spawn_presentation(&mut self, index: usize, winner: &AgentId, decision: &WinnerDecision) {
        let feedback = self.coordination.feedback_for(winner);
        let answers = self.coordination.latest_answers();
        let messages = prompts::presentation_messages(
            &self.prompt_context(index),
            &Presentation {
                winner,
                feedback: &feedback,
                tie_broken: decision.is_tie,
                answers: &answers,
            },
        );
        let sink = AgentSink::new(winner.clone(), self.tx.clone());
        let task = PresentationTask {
            sink: sink.clone(),
            backend: Arc::clone(&self.run.backends[index]),
            router: Arc::clone(&self.run.router),
            inbox: self.inbox.clone(),
            messages,
        };
        let cancel = CancellationToken::new();
        let token = cancel.clone();
        let handle = tokio::spawn(async move {
            tokio::select! {
                result = presentation::run(task) => sink.presented(result),
                () = token.cancelled() => {}
            }
        });
        self.presentation = Some(Running { cancel, handle });
    }

    fn on_presented(&mut self, result: Result<String, String>) {
        if self.presentation.take().is_none() {
            return;
        }
        match result {
            Ok(content) => self.complete_presentation(content, false),
            Err(reason) => {
                self.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "the final presentation failed ({reason}); presenting the winner's \
                             latest answer instead"
                        ),
                    },
                );
                self.present_stored_answer();
            }
        }
    }

    fn on_presentation_timeout(&mut self) {
        if let Some(running) = self.presentation.take() {
            running.stop();
        }
        self.emit(
            None,
            EventMsg::Timeout {
                scope: TimeoutScope::Presentation,
                seconds: self.timeout().as_secs(),
            },
        );
        self.present_stored_answer();
    }

    fn present_stored_answer(&mut self) {
        let Phase::Presenting { winner, .. } = &self.phase else {
            return;
        };
        let content = self
            .coordination
            .latest_answer(winner)
            .map(|(_, content)| content.to_string())
            .unwrap_or_default();
        self.complete_presentation(content, true);
    }

    fn complete_presentation(&mut self, content: String, fallback: bool) {
        let Phase::Presenting { winner, label, .. } =
            std::mem::replace(&mut self.phase, Phase::Done)
        else {
            return;
        };
        self.emit(
            Some(&winner),
            EventMsg::FinalPresentationDone {
                label,
                content: content.clone(),
                fallback,
            },
        );
        if let Some(log) = self.emitter.log()
            && let Err(error) = log.write_final_answer(&winner, &content)
        {
            self.emit(
                None,
                EventMsg::Warning {
                    message: format!("could not save the final answer: {error}"),
                },
            );
        }
        self.status(&winner, AgentStatus::Done);
        self.final_answer = Some(content);
    }

    fn finish(mut self) -> TurnReport {
        self.stop_rounds();
        if let Some(running) = self.presentation.take() {
            running.stop();
        }
        let outcome = self.outcome.unwrap_or(if self.timed_out {
            TurnOutcome::TimedOut
        } else if self.final_answer.is_some() {
            TurnOutcome::Completed
        } else {
            TurnOutcome::Failed
        });
        let duration_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let winner = self
            .winner
            .clone()
            .filter(|_| outcome != TurnOutcome::Cancelled);
        self.emit(
            None,
            EventMsg::TurnFinished {
                outcome,
                winner,
                duration_ms,
            },
        );
        TurnReport {
            outcome,
            final_answer: self.final_answer,
            shutdown: self.shutdown,
        }
    }
}

fn restart_reason(last: Option<&RoundEnd>) -> &'static str {
    match last {
        Some(RoundEnd::Answered) => "reviewing all answers after submitting its own",
        Some(RoundEnd::Voted) => "new answers arrived, so its vote was reset",
        Some(RoundEnd::VoteIgnored | RoundEnd::NewAnswersSeen) => "new answers arrived",
        Some(RoundEnd::Failed { .. } | RoundEnd::Exhausted { .. } | RoundEnd::Cancelled) | None => {
            "starting a new round"
        }
    }
}
