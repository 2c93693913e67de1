//! The debate's workflow calls in the turn driver: a member's `critique`, its revision
//! (`new_answer` or the reply's text) and its final `vote`, each recorded with its event or
//! refused with a message the model can fix.

use crate::orchestrator::channel::Verdict;
use crate::protocol::{
    AgentId, AgentStatus, AnswerLabel, EnforcementReason, EventMsg, Stage, StrategyEvent,
};
use crate::tools::critique::CritiqueEntry;

use super::Driver;

impl Driver<'_> {
    /// `critique` from a critique round: recorded, or refused with a message the model
    /// can fix.
    pub(super) fn judge_critique(
        &mut self,
        agent: &AgentId,
        critiques: &[CritiqueEntry],
        from_text: bool,
    ) -> Verdict {
        let entries: Vec<(String, String)> = critiques
            .iter()
            .map(|entry| (entry.agent.clone(), entry.critique.clone()))
            .collect();
        let Some(state) = self.debate_state() else {
            return nothing_to_debate();
        };
        let Stage::Critique { round } = state.stage() else {
            return nothing_to_debate();
        };
        let recorded = match state.submit_critiques(agent, &entries, from_text) {
            Ok(recorded) => recorded,
            Err(message) => {
                return Verdict::Rejected {
                    reason: EnforcementReason::InvalidArguments,
                    message,
                };
            }
        };
        let events: Vec<StrategyEvent> = if from_text {
            let content = recorded
                .first()
                .map(|critique| critique.content.clone())
                .unwrap_or_default();
            let targets = recorded
                .into_iter()
                .map(|critique| critique.target)
                .collect();
            vec![StrategyEvent::CritiqueSubmitted {
                round,
                targets,
                content,
            }]
        } else {
            recorded
                .into_iter()
                .map(|critique| StrategyEvent::CritiqueSubmitted {
                    round,
                    targets: vec![critique.target],
                    content: critique.content,
                })
                .collect()
        };
        for event in events {
            self.strategy_event(Some(agent), event);
        }
        self.status(agent, AgentStatus::Voted);
        Verdict::Accepted
    }

    /// `new_answer` (or the reply's text) from a revision round.
    pub(super) fn judge_revision(&mut self, agent: &AgentId, content: &str) -> Verdict {
        let anon = self.coordination.mapping().anon(agent).cloned();
        let Some(state) = self.debate_state() else {
            return nothing_to_debate();
        };
        let Stage::Revision { round } = state.stage() else {
            return nothing_to_debate();
        };
        let revision = match state.submit_revision(agent, content) {
            Ok(revision) => revision,
            Err(message) => {
                return Verdict::Rejected {
                    reason: EnforcementReason::InvalidArguments,
                    message,
                };
            }
        };
        if let Some(anon) = anon {
            let ordinal = usize::try_from(round)
                .unwrap_or(usize::MAX)
                .saturating_add(1);
            self.emit(
                Some(agent),
                EventMsg::AnswerSubmitted {
                    label: AnswerLabel::answer(&anon, ordinal),
                    anon_id: anon,
                    content: revision.content,
                    votes_reset: None,
                },
            );
        }
        self.status(agent, AgentStatus::Answered);
        Verdict::Accepted
    }

    /// `vote` from the final vote.
    pub(super) fn judge_final_vote(
        &mut self,
        agent: &AgentId,
        target: &str,
        reason: &str,
    ) -> Verdict {
        let Some(state) = self.debate_state() else {
            return nothing_to_debate();
        };
        let chosen = match state.submit_vote(agent, target, reason) {
            Ok(chosen) => chosen,
            Err(message) => {
                return Verdict::Rejected {
                    reason: EnforcementReason::InvalidVote,
                    message,
                };
            }
        };
        let revisions = state
            .rounds()
            .iter()
            .filter(|round| {
                round
                    .revisions
                    .iter()
                    .any(|revision| revision.agent == chosen)
            })
            .count();
        let Some(anon) = self.coordination.mapping().anon(&chosen).cloned() else {
            return Verdict::Accepted;
        };
        self.emit(
            Some(agent),
            EventMsg::VoteCast {
                target: chosen,
                target_label: AnswerLabel::answer(&anon, revisions + 1),
                target_anon: anon,
                reason: reason.to_string(),
                standing: None,
            },
        );
        self.status(agent, AgentStatus::Voted);
        Verdict::Accepted
    }
}

fn nothing_to_debate() -> Verdict {
    Verdict::Rejected {
        reason: EnforcementReason::InvalidArguments,
        message: "That is not asked of you in this stage of the debate.".into(),
    }
}
