//! A member's round of a stage after answering (a council's ranking, a debate's critique,
//! revision or final vote): what it is told and offered, started like any agent round.

use std::sync::Arc;

use super::{Driver, Running};
use crate::backend::{Message, ToolSpec};
use crate::orchestrator::agent_round::{self, DebateReply, RoundTask};
use crate::orchestrator::channel::{AgentSink, RoundEnd};
use crate::orchestrator::context_budget::{ContextBudget, ContextTracker};
use crate::orchestrator::round_clock::{RoundClock, RoundLimit};
use crate::protocol::{AgentId, AnswerLabel, EventMsg, Stage};

/// A stage round beyond answering: its number, what it is told and offered, and how a
/// reply in text counts.
pub(super) struct StageRound {
    pub(super) round: u32,
    pub(super) messages: Vec<Message>,
    pub(super) tools: Vec<ToolSpec>,
    pub(super) vote_only: bool,
    /// The answers it is shown, for `RoundStarted`.
    pub(super) shown: Vec<AgentId>,
    pub(super) ranking: Option<Vec<String>>,
    pub(super) debate: Option<DebateReply>,
}

impl Driver<'_> {
    /// Starts `agent`'s round of `stage` (a stage after answering).
    pub(super) fn start_stage_round(
        &mut self,
        agent: &AgentId,
        index: usize,
        stage: Stage,
        round: StageRound,
    ) {
        let answers_seen: Vec<AnswerLabel> = round
            .shown
            .iter()
            .filter_map(|shown| self.coordination.latest_answer(shown))
            .map(|(label, _)| label)
            .collect();
        self.stage(Some(agent), stage);
        let limit = self.round_limit(round.round);
        self.emit(
            Some(agent),
            EventMsg::RoundStarted {
                round: round.round,
                answers_seen,
                vote_only: round.vote_only,
                time_limit: limit.map(RoundLimit::as_event),
            },
        );
        let link = self.agent_link(agent, index);
        let sink = link.sink().clone();
        let task = RoundTask {
            link,
            messages: Arc::new(round.messages),
            memory: false,
            tools: round.tools,
            vote_only: round.vote_only,
            ranking: round.ranking,
            debate: round.debate,
            reset_plan: None,
            answers_version: self.rounds.answers_version.subscribe(),
            workspace: None,
            round: round.round,
            clock: RoundClock::start(limit),
            context: self.context_tracker(index),
        };
        self.spawn_round(agent.clone(), sink, task);
    }

    /// The context window of the agent at config `index`.
    pub(super) fn context_tracker(&self, index: usize) -> ContextTracker {
        ContextTracker::new(ContextBudget::for_backend(
            &self.run.config.agents[index].backend,
            self.run
                .config
                .orchestrator
                .coordination
                .compression_target_ratio,
        ))
    }

    /// Runs `task` as `agent`'s round; its end reaches the driver through `sink`.
    pub(super) fn spawn_round(&mut self, agent: AgentId, sink: AgentSink, task: RoundTask) {
        let running = Running::spawn(agent_round::run(task), move |result| {
            sink.round_finished(result.unwrap_or_else(|message| RoundEnd::Failed { message }));
        });
        self.rounds.running.insert(agent, running);
    }
}
