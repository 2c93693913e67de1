//! The council strategy in the turn driver: members answer alone (the coordination rules
//! do that), then each ranks its peers' anonymised answers in a ranking round, then a
//! chairman synthesizes, with a fallback chairman when one fails. A debate shares its
//! answering stage, its run state and its synthesis. The stages' state is
//! [`crate::orchestrator::coordination::council::Council`]; this file turns it into
//! rounds and events.

use super::debate::DebateRun;
use super::stage_round::StageRound;
use super::{Driver, Phase};
use crate::config::DebateConfig;
use crate::orchestrator::channel::{RoundEnd, Verdict};
use crate::orchestrator::coordination::council::Council;
use crate::orchestrator::coordination::deliberation::Deliberation;
use crate::orchestrator::prompts::council::ranking_messages;
use crate::protocol::{
    AgentId, AgentStatus, ChairmanBasis, EnforcementReason, EventMsg, RankingSource, Stage,
    StrategyEvent,
};
use crate::tools::rank::rank_spec;

/// The members, their answers, and the members that gave none and why (config order).
pub(super) type AnsweringResults = (Vec<AgentId>, Vec<(AgentId, String)>, Vec<(AgentId, String)>);

/// A council (or debate) turn's progress beyond what coordination keeps.
#[derive(Default)]
pub(super) struct CouncilRun {
    /// `None` while members answer.
    pub(super) state: Option<Council>,
    /// Members whose answering round failed, and why.
    failures: Vec<(AgentId, String)>,
    /// The turn announced the answering stage.
    announced: bool,
    /// Who chairs now, and why.
    pub(super) chairman: Option<(AgentId, ChairmanBasis)>,
    /// The turn debates instead of ranking.
    pub(super) debate: Option<DebateRun>,
}

impl CouncilRun {
    pub(super) fn debating(settings: DebateConfig) -> Self {
        Self {
            debate: Some(DebateRun::new(settings)),
            ..Self::default()
        }
    }

    /// The council's or the debate's state once its members have answered.
    pub(super) fn deliberation(&self) -> Option<&dyn Deliberation> {
        match &self.debate {
            Some(debate) => debate
                .state
                .as_ref()
                .map(|state| state as &dyn Deliberation),
            None => self.state.as_ref().map(|state| state as &dyn Deliberation),
        }
    }

    pub(super) fn deliberation_mut(&mut self) -> Option<&mut dyn Deliberation> {
        match &mut self.debate {
            Some(debate) => debate
                .state
                .as_mut()
                .map(|state| state as &mut dyn Deliberation),
            None => self
                .state
                .as_mut()
                .map(|state| state as &mut dyn Deliberation),
        }
    }
}

impl Driver<'_> {
    pub(super) fn strategy_event(&mut self, agent: Option<&AgentId>, event: StrategyEvent) {
        self.emit(agent, EventMsg::Strategy(event));
    }

    pub(super) fn stage(&mut self, agent: Option<&AgentId>, stage: Stage) {
        self.strategy_event(agent, StrategyEvent::StageStarted { stage });
    }

    /// A member starts its answering round (the turn enters the stage with the first).
    pub(super) fn council_answering_round(&mut self, agent: &AgentId) {
        let Some(run) = self.council.as_mut() else {
            return;
        };
        let first = !std::mem::replace(&mut run.announced, true);
        if first {
            self.stage(None, Stage::Answering);
        }
        self.stage(Some(agent), Stage::Answering);
    }

    /// A council round ended. A failed answering round is noted (the caller drops the
    /// member); a ranking round is handled here entirely (`true`).
    pub(super) fn council_round_ended(&mut self, agent: &AgentId, end: &RoundEnd) -> bool {
        let Some(run) = self.council.as_mut() else {
            return false;
        };
        if run
            .debate
            .as_ref()
            .is_some_and(|debate| debate.state.is_some())
        {
            self.debate_round_ended(agent, end);
            return true;
        }
        let Some(council) = run.state.as_mut() else {
            let reason = match end {
                RoundEnd::Failed { message } => Some(message.clone()),
                RoundEnd::Exhausted { detail, .. } => Some(format!("no answer ({detail})")),
                RoundEnd::TimedOut { .. } => Some("its round ran out of time".into()),
                _ => None,
            };
            if let Some(reason) = reason {
                run.failures.push((agent.clone(), reason));
            }
            return false;
        };
        let missing = match end {
            RoundEnd::Voted => None,
            RoundEnd::Failed { message } => {
                council.member_failed(agent, message);
                let message = message.clone();
                self.emit(
                    Some(agent),
                    EventMsg::AgentError {
                        message: message.clone(),
                    },
                );
                self.kill(agent, format!("the model call failed: {message}"));
                Some(format!("the model call failed: {message}"))
            }
            RoundEnd::Exhausted { detail, .. } => Some(format!("no usable ranking: {detail}")),
            RoundEnd::TimedOut { .. } => Some("its ranking round ran out of time".into()),
            RoundEnd::Answered
            | RoundEnd::VoteIgnored
            | RoundEnd::NewAnswersSeen
            | RoundEnd::Cancelled => Some("the ranking round ended without a ranking".into()),
        };
        if let Some(reason) = missing {
            if let Some(council) = self.council.as_mut().and_then(|run| run.state.as_mut()) {
                council.ranking_missing(agent, &reason);
            }
            self.strategy_event(Some(agent), StrategyEvent::RankingMissing { reason });
            self.emit_aggregate();
        }
        true
    }

    /// `rank` from a ranking round: recorded, or refused with a message the model can fix.
    pub(super) fn judge_ranking(
        &mut self,
        agent: &AgentId,
        ranking: &[String],
        reasoning: &str,
        source: RankingSource,
    ) -> Verdict {
        let Some(council) = self.council.as_mut().and_then(|run| run.state.as_mut()) else {
            return Verdict::Rejected {
                reason: EnforcementReason::InvalidArguments,
                message: "Nothing is being ranked now; answer with `new_answer`.".into(),
            };
        };
        match council.submit(agent, ranking, source, reasoning) {
            Ok(ballot) => {
                let event = StrategyEvent::RankingSubmitted {
                    order: ballot.order.clone(),
                    shown: ballot.shown.clone(),
                    source,
                };
                self.strategy_event(Some(agent), event);
                self.status(agent, AgentStatus::Voted);
                self.emit_aggregate();
                Verdict::Accepted
            }
            Err(message) => Verdict::Rejected {
                reason: EnforcementReason::InvalidVote,
                message,
            },
        }
    }

    fn emit_aggregate(&mut self) {
        let Some(council) = self.council.as_ref().and_then(|run| run.state.as_ref()) else {
            return;
        };
        let event = StrategyEvent::RankingsAggregated {
            standings: council.standings(),
            missing: council.missing(),
            complete: council.is_complete(),
        };
        self.strategy_event(None, event);
    }

    /// Coordination settled: after answering, the ranking starts; once every ranker is
    /// done, the chairman synthesizes.
    pub(super) fn advance_council(&mut self) {
        let Some(run) = self.council.as_ref() else {
            return;
        };
        if run.debate.is_some() {
            self.advance_debate();
            return;
        }
        match &run.state {
            None => self.begin_ranking(),
            Some(council) if council.is_complete() && run.chairman.is_none() => {
                self.begin_synthesis();
            }
            Some(_) => {}
        }
    }

    fn begin_ranking(&mut self) {
        if !self.seat_council() {
            return;
        }
        let rankers = self
            .council
            .as_ref()
            .and_then(|run| run.state.as_ref())
            .map(|council| council.pending().to_vec())
            .unwrap_or_default();
        self.stage(None, Stage::Ranking);
        if rankers.is_empty() {
            // A lone answer: nothing to rank, the aggregate is complete as it stands.
            self.emit_aggregate();
        }
        for ranker in rankers {
            self.start_ranking_round(&ranker);
        }
        self.advance_council();
    }

    /// The answering stage is over: the council's state from the answers and the members
    /// that failed; `false` (and the turn ends) when nobody answered.
    fn seat_council(&mut self) -> bool {
        let Some((members, answers, failed)) = self.answering_results() else {
            return false;
        };
        let rank_own = self.run.config.orchestrator.council.rank_own;
        let council = Council::new(&self.request.question, rank_own, members, answers, failed);
        if let Some(run) = self.council.as_mut() {
            run.state = Some(council);
        }
        true
    }

    /// The members, their answers and the members that gave none and why, when the
    /// answering stage is over; `None` (and the turn ends) when nobody answered.
    pub(super) fn answering_results(&mut self) -> Option<AnsweringResults> {
        let members = self.coordination.agents().to_vec();
        let answers: Vec<(AgentId, String)> = self
            .coordination
            .latest_answers()
            .into_iter()
            .map(|(agent, content)| (agent, content.to_string()))
            .collect();
        let run = self.council.as_mut()?;
        let failed: Vec<(AgentId, String)> = members
            .iter()
            .filter(|member| !answers.iter().any(|(agent, _)| agent == *member))
            .map(|member| {
                let reason = run
                    .failures
                    .iter()
                    .find(|(agent, _)| agent == member)
                    .map_or_else(|| "gave no answer".to_string(), |(_, why)| why.clone());
                (member.clone(), reason)
            })
            .collect();
        if answers.is_empty() {
            self.emit(
                None,
                EventMsg::Warning {
                    message: "no council member produced an answer, so there is nothing to rank \
                              or synthesize"
                        .into(),
                },
            );
            self.phase = Phase::Done;
            return None;
        }
        Some((members, answers, failed))
    }

    /// The turn's time ran out before the chairman could start: the rankings not in count
    /// for nothing and the best-ranked answer so far is the final answer.
    pub(super) fn council_timed_out(&mut self) {
        if self
            .council
            .as_ref()
            .is_some_and(|run| run.debate.is_some())
        {
            self.debate_timed_out();
            return;
        }
        let seated = self.council.as_ref().is_some_and(|run| run.state.is_some());
        if !seated && !self.seat_council() {
            return;
        }
        let pending = self
            .council
            .as_ref()
            .and_then(|run| run.state.as_ref())
            .map(|council| council.pending().to_vec())
            .unwrap_or_default();
        for ranker in pending {
            let reason = "the turn timed out before it ranked".to_string();
            if let Some(council) = self.council.as_mut().and_then(|run| run.state.as_mut()) {
                council.ranking_missing(&ranker, &reason);
            }
            self.strategy_event(Some(&ranker), StrategyEvent::RankingMissing { reason });
        }
        self.emit_aggregate();
        self.council_without_chairman();
    }

    fn start_ranking_round(&mut self, ranker: &AgentId) {
        let (Some(index), Some(council)) = (
            self.agent_index(ranker),
            self.council.as_ref().and_then(|run| run.state.as_ref()),
        ) else {
            return;
        };
        let shown = council.shown(ranker);
        let labels: Vec<String> = shown.iter().map(|answer| answer.label.clone()).collect();
        let round = StageRound {
            round: 2,
            messages: ranking_messages(&self.prompt_context(index), &shown),
            tools: vec![rank_spec(&labels)],
            vote_only: true,
            shown: shown.into_iter().map(|answer| answer.agent).collect(),
            ranking: Some(labels),
            debate: None,
        };
        self.start_stage_round(ranker, index, Stage::Ranking, round);
    }

    pub(super) fn begin_synthesis(&mut self) {
        let Some(council) = self.council.as_ref().and_then(CouncilRun::deliberation) else {
            return;
        };
        let configured = self.run.config.orchestrator.council.chairman.clone();
        let order = council.chairman_order(configured.as_ref());
        let missing = council.missing();
        let unconfigured = council.unconfigured_basis();
        self.stage(None, Stage::Synthesis);
        let Some(first) = order.first().cloned() else {
            self.council_without_chairman();
            return;
        };
        let basis = match &configured {
            Some(chairman) if *chairman == first => ChairmanBasis::Configured,
            Some(chairman) => ChairmanBasis::Fallback {
                failed: chairman.clone(),
                reason: missing
                    .iter()
                    .find(|(agent, _)| agent == chairman)
                    .map_or_else(|| "it cannot chair".to_string(), |(_, why)| why.clone()),
            },
            None => unconfigured,
        };
        self.start_chairman(first, basis);
    }
}
