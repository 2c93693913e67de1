//! Starting agent rounds, judging their workflow calls, and handling how they end.

use std::sync::Arc;

use super::{Driver, Phase};
use crate::orchestrator::agent_round::{MAX_ATTEMPTS, RoundTask};
use crate::orchestrator::channel::{RoundEnd, RoundUpdate, Verdict};
use crate::orchestrator::coordination::{StopOutcome, Update, VoteOutcome};
use crate::orchestrator::prompts;
use crate::orchestrator::round_clock::{RoundClock, RoundLimit};
use crate::protocol::{AgentId, AgentStatus, EventMsg};
use crate::tools::WorkflowCall;
use crate::tools::workflow::{decomposition_tools, workflow_tools};

impl Driver<'_> {
    /// Says which agents the fairness lead cap holds back now, and which it let go, before
    /// the let-go start their rounds.
    fn announce_fairness_holds(&mut self) {
        for agent in self.coordination.agents().to_vec() {
            let hold = self.coordination.fairness_hold(&agent);
            let announced = self.rounds.held.get(&agent).copied();
            match (hold, announced) {
                (Some(now), before) if before != Some(now) => {
                    self.rounds.held.insert(agent.clone(), now);
                    let (lead, cap) = now;
                    self.emit(Some(&agent), EventMsg::FairnessHold { lead, cap });
                }
                (None, Some(_)) => {
                    self.rounds.held.remove(&agent);
                    // A dropped agent is not let go: it is gone.
                    if !self.coordination.is_killed(&agent) {
                        self.emit(Some(&agent), EventMsg::FairnessReleased);
                    }
                }
                _ => {}
            }
        }
    }

    /// Starts a round for every live agent that has no round and no valid vote.
    pub(super) fn start_due_rounds(&mut self) {
        if !matches!(self.phase, Phase::Coordinating) || self.critic_holds_rounds() {
            return;
        }
        self.announce_fairness_holds();
        for agent in self.coordination.agents().to_vec() {
            if self.rounds.running.contains_key(&agent) || !self.coordination.needs_round(&agent) {
                continue;
            }
            let Some(index) = self.agent_index(&agent) else {
                continue;
            };
            self.merge_proposed_criteria(&agent);
            let Some(view) = self.coordination.begin_round(&agent) else {
                continue;
            };
            if view.round > 1 {
                let reason = restart_reason(
                    self.rounds.last_end.get(&agent),
                    self.coordination.is_decomposition(),
                )
                .to_string();
                self.emit(
                    Some(&agent),
                    EventMsg::AgentRestarted {
                        round: view.round,
                        reason,
                    },
                );
            }
            let limit = self.round_limit(view.round);
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
                    time_limit: limit.map(RoundLimit::as_event),
                },
            );
            let mut tools = if self.coordination.is_decomposition() {
                decomposition_tools(view.vote_only)
            } else if self.council.is_some() {
                self.council_answering_round(&agent);
                vec![crate::tools::workflow::new_answer_spec()]
            } else {
                workflow_tools(&view.vote_options, view.vote_only)
            };
            tools.extend(self.task_kit.turn_tools[index].specs(view.vote_only));
            tools.extend(self.run.routers[index].tools());
            // A restarted agent starts its task plan afresh, as in MassGen; an agent
            // carrying out a saved plan keeps its progress.
            let reset_plan = self
                .task_plan(index)
                .filter(|_| view.round > 1 && !self.executes_plan())
                .cloned();
            let link = self.agent_link(&agent, index);
            let sink = link.sink().clone();
            let context = self.prompt_context(index);
            let memory = context.memory;
            let task = RoundTask {
                link,
                messages: Arc::new(prompts::round_messages(&context, &view)),
                memory,
                tools,
                vote_only: view.vote_only,
                ranking: None,
                debate: None,
                reset_plan,
                answers_version: self.rounds.answers_version.subscribe(),
                workspace: self
                    .run
                    .workspaces
                    .as_ref()
                    .map(|workspaces| (Arc::clone(workspaces), index)),
                round: view.round,
                clock: RoundClock::start(limit),
                context: self.context_tracker(index),
            };
            self.spawn_round(agent, sink, task);
        }
    }

    /// The time limit of an agent's `round`-th round this turn, if the config sets one.
    pub(super) fn round_limit(&self, round: u32) -> Option<RoundLimit> {
        let timeouts = &self.run.config.timeouts;
        let soft = if round <= 1 {
            timeouts.initial_round
        } else {
            timeouts.subsequent_round
        }?;
        Some(RoundLimit {
            soft,
            grace: timeouts.round_grace,
        })
    }

    /// A running agent asks how to learn of peers' new answers.
    pub(super) fn check_update(&mut self, agent: &AgentId, inject_allowed: bool) -> RoundUpdate {
        match self.coordination.take_update(agent, inject_allowed) {
            Update::None => RoundUpdate::None,
            Update::Restart => RoundUpdate::Restart,
            Update::Inject(fresh) => {
                let Some(index) = self.agent_index(agent) else {
                    return RoundUpdate::Restart;
                };
                let text = prompts::updates::injection_block(&self.prompt_context(index), &fresh);
                RoundUpdate::Inject {
                    text,
                    labels: fresh.into_iter().map(|fresh| fresh.answer.label).collect(),
                }
            }
        }
    }

    pub(super) fn judge(&mut self, agent: &AgentId, call: WorkflowCall) -> Verdict {
        if !self.rounds.running.contains_key(agent) || !matches!(self.phase, Phase::Coordinating) {
            return Verdict::Ignored;
        }
        match call {
            WorkflowCall::NewAnswer { content } if self.debating() => {
                self.judge_revision(agent, &content)
            }
            WorkflowCall::Vote { agent_id, reason } if self.debating() => {
                self.judge_final_vote(agent, &agent_id, &reason)
            }
            WorkflowCall::Critique {
                critiques,
                from_text,
            } => self.judge_critique(agent, &critiques, from_text),
            WorkflowCall::NewAnswer { content } => {
                match self.coordination.submit_answer(agent, &content) {
                    Ok(accepted) => {
                        self.emit(
                            Some(agent),
                            EventMsg::AnswerSubmitted {
                                label: accepted.label,
                                anon_id: accepted.anon,
                                content: content.trim().to_string(),
                                votes_reset: Some(accepted.votes_reset),
                            },
                        );
                        self.status(agent, AgentStatus::Answered);
                        self.snapshot_after_answer(agent);
                        if let Some(progress) = self
                            .agent_index(agent)
                            .and_then(|index| self.task_plan(index))
                            .map(|tools| tools.progress())
                        {
                            self.rounds.answer_progress.insert(agent.clone(), progress);
                        }
                        if !self.settings.rules.disable_injection {
                            self.rounds
                                .answers_version
                                .send_modify(|version| *version += 1);
                        }
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
                        standing,
                    }) => {
                        self.emit(
                            Some(agent),
                            EventMsg::VoteCast {
                                target,
                                target_anon,
                                target_label,
                                reason,
                                standing: Some(standing),
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
            WorkflowCall::Rank {
                ranking,
                reasoning,
                source,
            } => self.judge_ranking(agent, &ranking, &reasoning, source),
            WorkflowCall::Stop { summary, status } => {
                match self.coordination.submit_stop(agent, &summary) {
                    Ok(StopOutcome::Accepted) => {
                        self.emit(Some(agent), EventMsg::AgentStopped { summary, status });
                        self.status(agent, AgentStatus::Voted);
                        Verdict::Accepted
                    }
                    Ok(StopOutcome::Ignored) => {
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

    pub(super) fn on_round_finished(&mut self, agent: AgentId, end: RoundEnd) {
        if self.rounds.running.remove(&agent).is_none() {
            return;
        }
        self.coordination.end_round(&agent);
        if self.council_round_ended(&agent, &end) {
            self.rounds.last_end.insert(agent, end);
            return;
        }
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
            RoundEnd::TimedOut { denials } => {
                let reason = format!(
                    "round time limit: {denials} tool calls in a row were refused after the \
                     grace period, and it never called `vote` or `new_answer`"
                );
                self.kill(&agent, reason);
                self.status(&agent, AgentStatus::TimedOut);
            }
            RoundEnd::NewAnswersSeen => self.status(&agent, AgentStatus::Restarting),
            RoundEnd::Answered | RoundEnd::Voted | RoundEnd::VoteIgnored | RoundEnd::Cancelled => {}
        }
        self.rounds.last_end.insert(agent, end);
        self.start_due_rounds();
    }

    pub(super) fn kill(&mut self, agent: &AgentId, reason: String) {
        self.coordination.kill(agent);
        self.emit(Some(agent), EventMsg::AgentKilled { reason });
        self.status(agent, AgentStatus::Error);
    }

    pub(super) fn stop_rounds(&mut self) -> Vec<AgentId> {
        let stopped: Vec<AgentId> = self.rounds.running.keys().cloned().collect();
        for (agent, running) in self.rounds.running.drain() {
            running.stop();
            self.coordination.end_round(&agent);
        }
        stopped
    }
}

/// Why an agent's new round starts; in decomposition mode its vote slot holds its `stop`.
fn restart_reason(last: Option<&RoundEnd>, decomposition: bool) -> &'static str {
    match last {
        Some(RoundEnd::Answered) => "reviewing all answers after submitting its own",
        Some(RoundEnd::Voted) if decomposition => "new answers arrived, so its stop was reset",
        Some(RoundEnd::Voted) => "new answers arrived, so its vote was reset",
        Some(RoundEnd::VoteIgnored | RoundEnd::NewAnswersSeen) => "new answers arrived",
        Some(
            RoundEnd::Failed { .. }
            | RoundEnd::Exhausted { .. }
            | RoundEnd::TimedOut { .. }
            | RoundEnd::Cancelled,
        )
        | None => "starting a new round",
    }
}
