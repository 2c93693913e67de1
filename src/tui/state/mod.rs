//! What the TUI knows, folded from the orchestrator's events: `UiState::apply` is the only
//! way news changes it, so every screen is a pure function of this state.

mod agent;
mod answers;
mod attempts;
mod code;
mod final_answer;
mod input;
#[cfg(test)]
mod input_tests;
mod metrics;
mod plan;
#[cfg(test)]
mod plan_tests;
mod record;
mod replay;
#[cfg(test)]
mod resume_tests;
#[cfg(test)]
mod tests;
mod timeline;
mod timeline_entries;
mod tools;
mod turns;
mod votes;

use std::path::PathBuf;

use jiff::Timestamp;

pub use agent::{
    AgentCard, CardItem, OutputMark, TextBlock, ToolCard, ToolState, display_tool_name,
    growing_text, provider_tool_name,
};
pub use attempts::{RoundClock, RoundTimeLeft};
pub use code::{CodeLines, CodeSpan, highlight_tables_loaded};
pub use final_answer::PresentedAnswer;
pub use input::QueuedInput;
pub use metrics::{AgentMetrics, Metrics, ToolMetrics};
pub use plan::{PendingQuestion, SavedPlan, TaskTree, TreeRow, asked};
pub use record::{AgentTurn, CastVote, FinalAnswer, TurnRecord, VoteGroup};
pub use replay::ReplayState;
pub use timeline::{Delivery, EntryKind, TimelineEntry, preview};
pub use tools::{ServerRow, WorkspaceDirs, refusal};
pub use votes::{Bar, VoteTally};

use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, Event, EventMsg, Mode, TurnOptions, TurnOutcome,
};
use crate::session::VoteLedger;

/// Where the turn is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// No turn running: the welcome view, or a finished turn awaiting the next question.
    #[default]
    Idle,
    /// Agents are answering.
    Coordinating,
    /// At least one vote stands for the current answers.
    Voting,
    /// The winner is presenting the final answer.
    Presenting,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiState {
    pub version: String,
    pub agents: Vec<AgentCard>,
    pub turn: u32,
    pub question: String,
    pub mode: Mode,
    /// How the running (or last) turn was asked to run.
    pub turn_options: TurnOptions,
    pub phase: Phase,
    pub turn_started_at: Option<Timestamp>,
    pub winner: Option<AgentId>,
    pub outcome: Option<TurnOutcome>,
    pub timeline: Vec<TimelineEntry>,
    /// The timeline holds a planning entry (blocked call, question, …).
    pub planning_in_timeline: bool,
    /// Every finished tool call of the session, as `/events` lists them.
    pub tool_log: Vec<TimelineEntry>,
    pub votes: VoteTally,
    /// Every vote of the running (or last) turn and what became of it, for its record.
    pub vote_ledger: VoteLedger,
    /// Human input typed during the turn and not yet delivered to every agent.
    pub queued_input: Vec<QueuedInput>,
    pub turns: Vec<TurnRecord>,
    /// `/clear` emptied the panels (the welcome view says so).
    pub cleared: bool,
    /// The earlier session this run goes on with.
    pub resumed: Option<String>,
    /// The first turn of the resumed session's history, when it was cleared after turn 1.
    pub resumed_history_from: Option<u32>,
    /// Why the resumed session was taken: no earlier session ran this config, so
    /// `--continue` went on with the newest one.
    pub resumed_notice: Option<String>,
    /// What the run warned about before it started (config, `.env`, logging), escaped:
    /// the welcome view shows the first, `/status` all.
    pub startup_warnings: Vec<String>,
    /// Every agent's MCP servers, newest state each.
    pub servers: Vec<ServerRow>,
    /// The agents' workspace directories, for the workspace browser.
    pub workspaces: Vec<WorkspaceDirs>,
    /// The running (or last) turn's log directory.
    pub log_dir: Option<PathBuf>,
    /// These events are a recording played back (`massgen replay`), not a live run.
    pub replay: Option<ReplayState>,
    /// The plan of the running (or last) planning or execute turn.
    pub plan: Option<SavedPlan>,
    /// The saved plans as last listed, newest first (`None` until a listing came).
    pub plans: Option<Vec<SavedPlan>>,
    /// Agents' questions to the user still waiting for an answer, oldest first.
    pub questions: Vec<PendingQuestion>,
    /// The running (or last) turn's attempt and how many it may have, once the winner
    /// checked its answer or sent it back (`coordination.max_orchestration_restarts`).
    pub attempt: Option<(u32, u32)>,
    /// The session's model and tool call metrics (`/metrics`).
    pub metrics: Metrics,
}

impl UiState {
    /// The state before any event: the configured agents, waiting.
    pub fn new(agents: Vec<AgentInfo>) -> Self {
        Self {
            agents: agents.into_iter().map(AgentCard::new).collect(),
            ..Self::default()
        }
    }

    pub fn is_running(&self) -> bool {
        self.phase != Phase::Idle
    }

    pub fn agent(&self, id: &AgentId) -> Option<&AgentCard> {
        self.agents.iter().find(|card| &card.info.id == id)
    }

    /// The agent's place in config order (its colour).
    pub fn agent_index(&self, id: &AgentId) -> Option<usize> {
        self.agents.iter().position(|card| &card.info.id == id)
    }

    fn agent_mut(&mut self, id: Option<&AgentId>) -> Option<&mut AgentCard> {
        let id = id?;
        self.agents.iter_mut().find(|card| &card.info.id == id)
    }

    /// Folds one event in. Queued human input is dropped once every agent still working
    /// has it (after a delivery, or when an agent stops).
    pub fn apply(&mut self, event: &Event) {
        self.tick_replay_clock(event.at);
        self.metrics.apply(event);
        self.fold(event);
        if !self.queued_input.is_empty() {
            self.settle_queued_input();
        }
    }

    fn fold(&mut self, event: &Event) {
        let agent = event.agent.as_ref();
        self.push_entry(event);
        self.vote_ledger.fold(agent, &event.msg);
        if let Some(entry) = timeline_entries::tool_call_entry(event) {
            self.tool_log.push(entry);
        }
        match &event.msg {
            EventMsg::RunStarted { version, agents } => {
                self.version.clone_from(version);
                self.set_roster(agents);
            }
            EventMsg::RunFinished => {}
            EventMsg::AgentsReplaced { agents } => self.set_roster(agents),
            EventMsg::HistoryCleared => self.start_afresh(),
            EventMsg::SessionResumed {
                session_id,
                turns,
                history_from,
                notice,
            } => {
                self.resumed_history_from = *history_from;
                self.resumed_notice.clone_from(notice);
                self.resume(session_id, turns);
            }
            EventMsg::TurnStarted {
                question,
                mode,
                agents,
                log_dir,
                options,
            } => {
                self.turn_options.clone_from(options);
                self.start_turn(
                    event.turn,
                    event.at,
                    question,
                    *mode,
                    agents,
                    log_dir.as_ref(),
                );
            }
            EventMsg::TurnFinished {
                outcome,
                winner,
                duration_ms,
            } => {
                self.note_undelivered_input(event);
                self.finish_turn(event.turn, *outcome, winner.as_ref(), *duration_ms);
            }
            EventMsg::AgentStatus { status } => {
                let at = event.at;
                if let Some(card) = self.agent_mut(agent) {
                    card.status = *status;
                    card.started_at.get_or_insert(at);
                }
            }
            EventMsg::RoundStarted {
                round,
                answers_seen,
                time_limit,
                ..
            } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.round = *round;
                    card.round_clock = time_limit.map(|limit| RoundClock::new(event.at, limit));
                    card.items.push(CardItem::Round {
                        round: *round,
                        answers_seen: answers_seen.clone(),
                    });
                }
            }
            EventMsg::TextDelta { text } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.push_text(text);
                }
            }
            EventMsg::ReasoningDelta { text } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.push_reasoning(text);
                }
            }
            EventMsg::ToolCallBegin {
                call_id,
                tool,
                arguments,
            } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.running_tools += 1;
                    card.items.push(CardItem::Tool(ToolCard {
                        call_id: call_id.clone(),
                        name: display_tool_name(tool),
                        arguments: arguments.clone(),
                        state: ToolState::Running,
                    }));
                }
            }
            EventMsg::ProviderTool(call) => {
                if let Some(card) = self.agent_mut(agent) {
                    card.push_provider_tool(call);
                }
            }
            EventMsg::ToolCallEnd {
                call_id,
                ok,
                output,
                duration_ms,
                ..
            } => {
                if let Some(card) = self.agent_mut(agent) {
                    let finished = card.tool_mut(call_id).is_some_and(|tool| {
                        let was_running = tool.state == ToolState::Running;
                        tool.state = ToolState::Done {
                            ok: *ok,
                            output: output.clone(),
                            duration_ms: *duration_ms,
                        };
                        was_running
                    });
                    if finished {
                        card.running_tools = card.running_tools.saturating_sub(1);
                    }
                }
            }
            EventMsg::AnswerSubmitted {
                label,
                content,
                votes_reset,
                ..
            } => {
                self.answer_submitted(agent, label, content, votes_reset.as_deref());
            }
            EventMsg::VoteCast {
                target,
                target_label,
                reason,
                standing,
                ..
            } => self.vote_cast(agent, target, target_label, reason, standing.as_deref()),
            EventMsg::VoteIgnored { target, why, .. } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.items.push(CardItem::VoteIgnored {
                        target: target.to_string(),
                        why: why.clone(),
                    });
                }
            }
            EventMsg::AgentRestarted { .. } | EventMsg::EnforcementRetry { .. } => {}
            EventMsg::UpdateInjected { labels } => self.update_injected(agent, labels),
            EventMsg::RoundTimeLimitReached { stage, .. } => {
                self.round_time_limit(agent, *stage, event.at);
            }
            EventMsg::PostEvaluationStarted {
                attempt,
                max_attempts,
            } => self.post_evaluation_started(agent, *attempt, *max_attempts),
            EventMsg::PostEvaluationFinished { outcome } => {
                self.post_evaluation_finished(agent, outcome);
            }
            EventMsg::OrchestrationRestarted {
                attempt,
                max_attempts,
                reason,
                log_dir,
                ..
            } => {
                if log_dir.is_some() {
                    self.log_dir.clone_from(log_dir);
                }
                self.restart_attempt(*attempt, *max_attempts, reason);
            }
            EventMsg::Retrying {
                attempt,
                max_retries,
                delay_ms,
                reason,
            } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.items.push(CardItem::Retry {
                        reason: reason.clone(),
                        delay_ms: *delay_ms,
                        attempt: *attempt,
                        max_retries: *max_retries,
                    });
                }
            }
            EventMsg::AgentError { message } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.status = AgentStatus::Error;
                    card.items.push(CardItem::Error(message.clone()));
                }
            }
            EventMsg::AgentKilled { reason } => {
                if let Some(voter) = agent {
                    self.votes.withdraw(std::slice::from_ref(voter));
                }
                if let Some(card) = self.agent_mut(agent) {
                    card.status = AgentStatus::Error;
                    card.items
                        .push(CardItem::Notice(format!("dropped: {reason}")));
                }
            }
            EventMsg::Usage {
                usage, cost_usd, ..
            } => {
                if let Some(card) = self.agent_mut(agent) {
                    card.spend.add(*usage, *cost_usd);
                }
            }
            EventMsg::RoundUsage { .. } => {}
            EventMsg::WinnerSelected { winner, tally, .. } => {
                self.winner = Some(winner.clone());
                self.votes.final_tally = Some(tally.clone());
                for card in &mut self.agents {
                    card.is_winner = &card.info.id == winner;
                }
            }
            EventMsg::FinalPresentationStarted { label } => self.final_started(agent, label),
            EventMsg::FinalPresentationDelta { text } => self.final_delta(agent, text),
            EventMsg::FinalPresentationDone { label, content, .. } => {
                self.final_done(agent, label, content);
            }
            EventMsg::FinalOverridden {
                label,
                agent,
                content,
            } => self.final_overridden(event.turn, label, agent, content),
            EventMsg::Timeout { .. }
            | EventMsg::BudgetReached { .. }
            | EventMsg::Cancelled
            | EventMsg::Warning { .. } => {}
            EventMsg::WorkspaceAssigned { .. }
            | EventMsg::McpServerStatus { .. }
            | EventMsg::ToolRefused { .. }
            | EventMsg::WorkspaceSnapshot { .. } => self.fold_tools(event),
            EventMsg::HumanInputQueued { text } => self.queue_input(text),
            EventMsg::HumanInputDelivered { text } => self.input_delivered(agent, text),
            EventMsg::ReplayStarted {
                source,
                speed,
                step,
            } => self.start_replay(event.at, source, *speed, *step),
            EventMsg::ReplayFinished { .. } => self.finish_replay(),
            EventMsg::PlanningModeDecided { .. }
            | EventMsg::ToolBlocked { .. }
            | EventMsg::TaskPlanChanged { .. }
            | EventMsg::BroadcastAsked { .. }
            | EventMsg::BroadcastAnswered { .. }
            | EventMsg::BroadcastClosed { .. }
            | EventMsg::PlanUpdated { .. }
            | EventMsg::PlansListed { .. } => self.fold_plan(event),
        }
    }

    fn set_roster(&mut self, agents: &[AgentInfo]) {
        let same = agents.len() == self.agents.len()
            && agents
                .iter()
                .zip(&self.agents)
                .all(|(info, card)| info == &card.info);
        if !same {
            self.agents = agents.iter().cloned().map(AgentCard::new).collect();
        }
    }
}
