//! Decomposition mode (`coordination_mode: decomposition`): each agent owns a subtask,
//! publishes its work with `new_answer` and says `stop` when its subtask is done; nobody
//! votes, and the configured presenter integrates every answer.

use super::Coordination;
use super::agent_state::Vote;
use super::outcome::WinnerDecision;
use super::terms::Rejection;
use crate::protocol::{AgentId, EnforcementReason, WinnerBasis};

/// What an accepted `stop` reports.
#[derive(Clone, Debug, PartialEq)]
pub enum StopOutcome {
    Accepted,
    /// Peers' newer answers arrived after the round began: the agent looks again.
    Ignored,
}

impl Coordination {
    /// Whether agents `stop` instead of voting.
    pub fn is_decomposition(&self) -> bool {
        self.rules.presenter.is_some()
    }

    /// What a model is told to do once it may not answer any more (MassGen's wording).
    pub(super) fn when_out_of_answers(&self) -> &'static str {
        if self.is_decomposition() {
            "Please call `stop` to signal you are done."
        } else {
            "Please vote for the best existing answer using the `vote` tool."
        }
    }

    /// Records a `stop`: the agent is done with its subtask until a peer's new answer
    /// wakes it up again (a new answer clears every stop, as it clears votes).
    pub fn submit_stop(
        &mut self,
        agent: &AgentId,
        summary: &str,
    ) -> Result<StopOutcome, Rejection> {
        let Some(index) = self.index(agent) else {
            return Err(Rejection {
                reason: EnforcementReason::InvalidArguments,
                message: format!("unknown agent {agent}"),
            });
        };
        if !self.is_decomposition() {
            return Err(Rejection {
                reason: EnforcementReason::InvalidArguments,
                message: "`stop` is only offered in decomposition mode; use `vote` or \
                          `new_answer`."
                    .into(),
            });
        }
        let state = &mut self.states[index];
        if state.restart_pending {
            state.vote = None;
            return Ok(StopOutcome::Ignored);
        }
        state.vote = Some(Vote {
            target: agent.clone(),
            reason: summary.to_string(),
            stop: true,
        });
        Ok(StopOutcome::Accepted)
    }

    /// The summary of the agent's standing `stop`, if it stopped.
    pub fn stop_summary(&self, agent: &AgentId) -> Option<&str> {
        let vote = self.state(agent)?.vote.as_ref()?;
        vote.stop.then_some(vote.reason.as_str())
    }

    /// In decomposition mode the presenter is decided by the config, not by votes; it
    /// presents even without an answer of its own (it integrates the others').
    pub(super) fn presenter_decision(&self) -> Option<WinnerDecision> {
        let presenter = self.rules.presenter.as_ref()?;
        Some(WinnerDecision {
            winner: presenter.clone(),
            tally: self.standing_tally(),
            is_tie: false,
            basis: WinnerBasis::Presenter,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::coordination::{Candidates, Rules};

    fn team() -> (Coordination, AgentId, AgentId) {
        let (a, b) = (AgentId::new("a"), AgentId::new("b"));
        let rules = Rules {
            presenter: Some(b.clone()),
            max_new_answers_global: Some(2),
            ..Rules::default()
        };
        (Coordination::new(vec![a.clone(), b.clone()], rules), a, b)
    }

    #[test]
    fn stops_settle_the_turn_and_the_presenter_wins_without_votes() {
        let (mut team, a, b) = team();
        for agent in [&a, &b] {
            team.begin_round(agent);
            assert!(
                team.submit_answer(agent, &format!("part of {agent}"))
                    .is_ok()
            );
            team.end_round(agent);
        }
        for agent in [&a, &b] {
            team.begin_round(agent);
            assert_eq!(team.submit_stop(agent, "done"), Ok(StopOutcome::Accepted));
            team.end_round(agent);
        }
        assert!(team.is_settled());
        let decision = team.decide_winner(Candidates::AllAnswers);
        assert_eq!(decision.map(|decision| decision.winner), Some(b));
        assert!(team.standing_tally().iter().all(|count| count.votes == 0));
    }

    #[test]
    fn a_new_answer_wakes_stopped_agents_and_votes_are_refused() {
        let (mut team, a, b) = team();
        team.begin_round(&a);
        assert!(team.submit_answer(&a, "part a").is_ok());
        team.end_round(&a);
        team.begin_round(&b);
        assert_eq!(
            team.submit_stop(&b, "nothing to add"),
            Ok(StopOutcome::Accepted)
        );
        team.end_round(&b);
        assert!(!team.needs_round(&b));
        team.begin_round(&a);
        assert!(team.submit_answer(&a, "part a, better").is_ok());
        team.end_round(&a);
        assert!(
            team.needs_round(&b),
            "a peer's new answer wakes a stopped agent"
        );
        let refused = team.submit_vote(&b, "agent1", "best");
        assert!(refused.is_err_and(|refusal| refusal.message.contains("`stop`")));
        let limit = team.submit_answer(&b, "part b");
        assert!(limit.is_err_and(|refusal| refusal.message.contains("call `stop`")));
    }
}
