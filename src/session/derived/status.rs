//! `status.json`, MassGen's status file: where the turn stands (phase, progress, each
//! agent's state, votes, winner, costs). A [`StatusTracker`] folds the turn's events into
//! it; the file is rewritten from the tracker every 2 s while the turn runs and once more,
//! from the whole event log, when it ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::{Value, json};

use super::coordination::unix;
use crate::protocol::{
    AgentId, AgentStatus, Event, EventMsg, Mode, PlanStatus, Spend, Stage, StrategyEvent, VoteCount,
};

/// Characters of a vote's reason and of the final answer kept in the file.
const REASON_PREVIEW: usize = 100;
const ANSWER_PREVIEW: usize = 200;

/// The turn's state as `status.json` shows it, built by [`apply`](Self::apply)ing its
/// events in order.
#[derive(Default)]
pub struct StatusTracker {
    question: String,
    mode: Mode,
    /// The saved plan the turn makes or carries out: its id and status.
    plan: Option<(String, PlanStatus)>,
    log_dir: Option<PathBuf>,
    start: Option<Timestamp>,
    /// In config order.
    agents: Vec<(AgentId, AgentState)>,
    /// The votes that stand, as coordination counted them with the latest vote, less those
    /// it reset or dropped since. `None` before the first vote, and in logs from before
    /// votes carried it.
    standing: Option<Vec<VoteCount>>,
    /// Votes by the label voted for, counted here, for logs whose votes carry no standing
    /// tally: every vote adds one, every answer clears them all.
    recounted: BTreeMap<String, u32>,
    voting_started: bool,
    winner: Option<AgentId>,
    presenting: bool,
    final_answer: Option<String>,
    finished: bool,
    spend: Spend,
    /// The cost budget that ended coordination, and what had been spent: (budget, spent).
    budget_reached: Option<(f64, f64)>,
    /// A council or debate turn: the stage the turn is in.
    stage: Option<Stage>,
}

#[derive(Default)]
struct AgentState {
    status: Option<AgentStatus>,
    answers: u32,
    latest_label: Option<String>,
    vote: Option<Vote>,
    restarts: u32,
    last_activity: Option<Timestamp>,
    error: Option<Problem>,
    /// A council or debate turn: the stage this agent's round is in.
    stage: Option<Stage>,
}

struct Vote {
    agent: AgentId,
    label: String,
    reason: String,
}

struct Problem {
    kind: &'static str,
    message: String,
    at: Timestamp,
}

impl StatusTracker {
    /// The final state after every event of a turn.
    pub fn from_events(events: &[Event]) -> Self {
        let mut tracker = Self::default();
        for event in events {
            tracker.apply(event);
        }
        tracker
    }

    /// The tracker has seen the turn start, so it has something to show.
    pub fn has_started(&self) -> bool {
        self.start.is_some()
    }

    pub fn apply(&mut self, event: &Event) {
        let msg = &event.msg;
        if let EventMsg::TurnStarted {
            question,
            agents,
            log_dir,
            mode,
            ..
        } = msg
        {
            self.question.clone_from(question);
            self.mode = *mode;
            self.log_dir.clone_from(log_dir);
            self.start = Some(event.at);
            self.agents = agents
                .iter()
                .map(|info| (info.id.clone(), AgentState::default()))
                .collect();
        } else if let EventMsg::PlanUpdated { plan } = msg {
            self.plan = Some((plan.id.clone(), plan.status));
        } else if let (EventMsg::Strategy(StrategyEvent::StageStarted { stage }), None) =
            (msg, &event.agent)
        {
            self.stage = Some(*stage);
        } else if let EventMsg::WinnerSelected { winner, .. } = msg {
            self.winner = Some(winner.clone());
        } else if let EventMsg::FinalPresentationStarted { .. } = msg {
            self.presenting = true;
        } else if let EventMsg::FinalPresentationDone { content, .. } = msg {
            self.final_answer = Some(content.clone());
        } else if let EventMsg::TurnFinished { .. } = msg {
            self.finished = true;
        } else if let EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } = msg
        {
            self.budget_reached = Some((*budget_usd, *spent_usd));
        } else if let EventMsg::Usage {
            usage, cost_usd, ..
        } = msg
        {
            self.spend.add(*usage, *cost_usd);
        } else if let EventMsg::AnswerSubmitted { votes_reset, .. } = msg {
            self.recounted.clear();
            match votes_reset {
                Some(voters) => self.withdraw(voters),
                None => {
                    self.standing = None;
                    for (_, agent) in &mut self.agents {
                        agent.vote = None;
                    }
                }
            }
        } else if let EventMsg::VoteCast {
            target_label,
            standing,
            ..
        } = msg
        {
            self.voting_started = true;
            self.standing.clone_from(standing);
            if standing.is_none() {
                *self.recounted.entry(target_label.to_string()).or_default() += 1;
            }
        } else if let (EventMsg::AgentKilled { .. }, Some(agent)) = (msg, &event.agent) {
            self.withdraw(std::slice::from_ref(agent));
        }
        if let Some(agent) = event.agent.as_ref().and_then(|id| self.agent_mut(id)) {
            agent.apply(event);
        }
    }

    /// The `voters`' votes no longer count: coordination reset them or dropped the voter.
    fn withdraw(&mut self, voters: &[AgentId]) {
        for (id, agent) in &mut self.agents {
            if voters.contains(id) {
                agent.vote = None;
            }
        }
        for count in self.standing.iter_mut().flatten() {
            count.withdraw(voters);
        }
    }

    /// The standing votes by answer label: coordination's tally under each candidate's
    /// latest answer (a vote is for an agent, and an agent stands by its latest answer),
    /// or as counted here for an older log.
    fn votes(&self) -> BTreeMap<String, u32> {
        let Some(standing) = &self.standing else {
            return self.recounted.clone();
        };
        standing
            .iter()
            .filter(|count| count.votes > 0)
            .map(|count| {
                let label = self
                    .agents
                    .iter()
                    .find(|(id, _)| id == &count.agent)
                    .and_then(|(_, agent)| agent.latest_label.clone())
                    .unwrap_or_else(|| count.anon_id.to_string());
                (label, count.votes)
            })
            .collect()
    }

    /// The file's contents as of `now`.
    pub fn to_json(&self, now: Timestamp) -> Value {
        let agents: serde_json::Map<String, Value> = self
            .agents
            .iter()
            .map(|(id, agent)| (id.to_string(), agent.to_json()))
            .collect();
        let mut status = json!({
            "meta": {
                "last_updated": unix(now),
                "session_id": self.log_dir.as_deref().and_then(run_dir_name),
                "log_dir": self.log_dir.as_deref().map(Path::to_string_lossy),
                "question": self.question,
                "mode": self.mode,
                "plan_id": self.plan.as_ref().map(|(id, _)| id),
                "plan_status": self.plan.as_ref().map(|(_, status)| status),
                "start_time": self.start.map(unix),
                "elapsed_seconds": self.start.map(|start| elapsed_seconds(start, now)),
            },
            "coordination": {
                "phase": self.phase(),
                "active_agent": self.active_agent(),
                "completion_percentage": self.completion_percentage(),
                "is_final_presentation": self.presenting,
            },
            "agents": agents,
            "results": {
                "votes": self.votes(),
                "winner": self.winner,
                "final_answer_preview": self
                    .final_answer
                    .as_deref()
                    .map(|answer| preview(answer, ANSWER_PREVIEW)),
            },
            "costs": {
                "total_estimated_cost": self.spend.cost_usd,
                "total_input_tokens": self.spend.usage.input_tokens,
                "total_output_tokens": self.spend.usage.output_tokens,
            },
        });
        // Only council and debate turns have stages: MassGen's schema has no such key.
        if let Some(stage) = self.stage {
            status["coordination"]["stage"] = json!(stage.label());
            for (id, agent) in &self.agents {
                if let Some(stage) = agent.stage {
                    status["agents"][id.as_str()]["stage"] = json!(stage.label());
                }
            }
        }
        // Only a turn the budget ended says so: MassGen's schema has no such key.
        if let Some((budget, spent)) = self.budget_reached {
            status["costs"]["budget_reached"] = json!({"budget_usd": budget, "spent_usd": spent});
        }
        status
    }

    /// `initial_answer` until every agent has answered or someone voted, then
    /// `enforcement`, then `presentation` once a winner is chosen.
    fn phase(&self) -> &'static str {
        if self.presenting || self.winner.is_some() {
            "presentation"
        } else if self.voting_started || self.agents.iter().all(|(_, agent)| agent.answers > 0) {
            "enforcement"
        } else {
            "initial_answer"
        }
    }

    /// The streaming agent heard from last.
    fn active_agent(&self) -> Option<&AgentId> {
        self.agents
            .iter()
            .filter(|(_, agent)| agent.is_streaming())
            .max_by_key(|(_, agent)| agent.last_activity)
            .map(|(id, _)| id)
    }

    /// Half for the agents that answered, half for those whose vote counts; 90 while the
    /// winner presents, 100 when the turn is over.
    fn completion_percentage(&self) -> u32 {
        if self.finished || self.final_answer.is_some() {
            return 100;
        }
        if self.presenting || self.winner.is_some() {
            return 90;
        }
        let total = u32::try_from(self.agents.len()).unwrap_or(u32::MAX).max(1);
        let count = |has: fn(&AgentState) -> bool| {
            u32::try_from(self.agents.iter().filter(|(_, agent)| has(agent)).count())
                .unwrap_or(u32::MAX)
        };
        let answered = count(|agent| agent.answers > 0);
        let voted = count(|agent| agent.vote.is_some());
        ((answered + voted) * 50 / total).min(89)
    }

    fn agent_mut(&mut self, id: &AgentId) -> Option<&mut AgentState> {
        self.agents
            .iter_mut()
            .find(|(agent, _)| agent == id)
            .map(|(_, state)| state)
    }
}

impl AgentState {
    fn apply(&mut self, event: &Event) {
        self.last_activity = Some(event.at);
        let msg = &event.msg;
        if let EventMsg::AgentStatus { status } = msg {
            self.status = Some(*status);
        } else if let EventMsg::Strategy(StrategyEvent::StageStarted { stage }) = msg {
            self.stage = Some(*stage);
        } else if let EventMsg::AnswerSubmitted { label, .. } = msg {
            self.answers += 1;
            self.latest_label = Some(label.to_string());
        } else if let EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } = msg
        {
            self.vote = Some(Vote {
                agent: target.clone(),
                label: target_label.to_string(),
                reason: reason.clone(),
            });
        } else if let EventMsg::AgentRestarted { .. } = msg {
            self.restarts += 1;
        } else if let EventMsg::AgentError { message } = msg {
            self.problem(event.at, "error", message);
        } else if let EventMsg::AgentKilled { reason } = msg {
            self.problem(event.at, "dropped", reason);
        } else if let EventMsg::Timeout { seconds, .. } = msg {
            self.problem(event.at, "timeout", &format!("timed out after {seconds} s"));
        }
    }

    fn problem(&mut self, at: Timestamp, kind: &'static str, message: &str) {
        self.error = Some(Problem {
            kind,
            message: message.to_string(),
            at,
        });
    }

    /// MassGen's status words: waiting, streaming, answered, voted, restarting, error,
    /// timeout, completed; and cancelled when the user cancelled the turn.
    fn status_word(&self) -> &'static str {
        match self.status {
            None | Some(AgentStatus::Waiting) => "waiting",
            Some(
                AgentStatus::Thinking
                | AgentStatus::Streaming
                | AgentStatus::Tool
                | AgentStatus::Presenting,
            ) => "streaming",
            Some(AgentStatus::Answered) => "answered",
            Some(AgentStatus::Voted) => "voted",
            Some(AgentStatus::Restarting) => "restarting",
            Some(AgentStatus::Done) => "completed",
            Some(AgentStatus::Error) => "error",
            Some(AgentStatus::Cancelled) => "cancelled",
            Some(AgentStatus::TimedOut) => "timeout",
        }
    }

    fn is_streaming(&self) -> bool {
        self.status_word() == "streaming"
    }

    fn to_json(&self) -> Value {
        json!({
            "status": self.status_word(),
            "answer_count": self.answers,
            "latest_answer_label": self.latest_label,
            "vote_cast": self.vote.as_ref().map(|vote| json!({
                "voted_for_agent": vote.agent,
                "voted_for_label": vote.label,
                "reason_preview": preview(&vote.reason, REASON_PREVIEW),
            })),
            "times_restarted": self.restarts,
            "last_activity": self.last_activity.map(unix),
            "error": self.error.as_ref().map(|problem| json!({
                "type": problem.kind,
                "message": problem.message,
                "timestamp": unix(problem.at),
            })),
        })
    }
}

/// The first `max` characters of `text`.
fn preview(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// `log_<ts>`, the run's log directory, from the attempt directory
/// `…/log_<ts>/turn_N/attempt_M`; MassGen calls it the session id.
fn run_dir_name(attempt_dir: &Path) -> Option<String> {
    let name = attempt_dir.ancestors().nth(2)?.file_name()?;
    Some(name.to_string_lossy().into_owned())
}

fn elapsed_seconds(start: Timestamp, now: Timestamp) -> f64 {
    (now.as_millisecond() - start.as_millisecond()).max(0) as f64 / 1000.0
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
