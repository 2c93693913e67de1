//! How an agent in a round learns of peers' new answers: a restart, or MassGen's
//! mid-stream injection into its next tool result.

use super::{AgentId, Coordination, VisibleAnswer};

/// A peer's answer the agent has not seen yet.
#[derive(Clone, Debug, PartialEq)]
pub struct FreshAnswer {
    pub answer: VisibleAnswer,
    /// Its author had answered before (an updated answer, not a first one).
    pub revised: bool,
}

/// How an agent in a round learns of peers' new answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// Nothing new.
    None,
    /// End the round; the next one starts with every answer.
    Restart,
    /// Append these answers to the agent's latest tool result and go on.
    Inject(Vec<FreshAnswer>),
}

impl Coordination {
    /// Peers answered since the agent's round began: whether it keeps going with their
    /// answers appended to its latest tool result (`Inject`) or restarts to read them.
    /// An agent that may only vote restarts (its `vote` choices are fixed for the round).
    /// Under `defer_peer_updates_until_restart` the answers wait for its next round (a gated
    /// agent under `allow_midstream_peer_updates_before_checklist_submit` still gets them
    /// until its first accepted checklist of the round). Else
    /// the first update of a turn is a restart, as are those `inject_allowed` forbids (its
    /// round is nearly out of time); later ones are injected, at most
    /// `max_midstream_injections_per_round` per round, newest first, the rest kept pending.
    pub fn take_update(&mut self, agent: &AgentId, inject_allowed: bool) -> Update {
        let Some(index) = self.index(agent) else {
            return Update::None;
        };
        let state = &self.states[index];
        if !state.in_round || !state.restart_pending {
            return Update::None;
        }
        if self.is_vote_only(index) {
            return Update::Restart;
        }
        if self.rules.fairness.defer_peer_updates_until_restart
            && !self.midstream_before_checklist(index)
        {
            return Update::None;
        }
        if state.updates == 0 || !inject_allowed {
            return Update::Restart;
        }
        let counts = self.answer_counts();
        let previously_seen = self.states[index].seen.clone();
        let fresh: Vec<(usize, FreshAnswer)> = self
            .visible_answers()
            .into_iter()
            .filter_map(|answer| {
                let author = self.mapping.real(answer.anon.as_str())?;
                let position = self.index(author)?;
                let seen = previously_seen.get(position).copied().unwrap_or(0);
                (counts[position] > seen).then_some((
                    position,
                    FreshAnswer {
                        revised: seen > 0,
                        answer,
                    },
                ))
            })
            .collect();
        let unseen: Vec<usize> = fresh.iter().map(|(position, _)| *position).collect();
        let mut chosen = self.within_injection_cap(index, fresh);
        chosen.sort_by_key(|(position, _)| *position);
        let state = &mut self.states[index];
        let mut seen = counts;
        for position in &unseen {
            if !chosen.iter().any(|(taken, _)| taken == position) {
                seen[*position] = previously_seen.get(*position).copied().unwrap_or(0);
            }
        }
        state.restart_pending = chosen.len() < unseen.len();
        state.seen = seen;
        if chosen.is_empty() {
            return Update::None;
        }
        state.updates += 1;
        state.injected_this_round += chosen.len() as u32;
        Update::Inject(chosen.into_iter().map(|(_, fresh)| fresh).collect())
    }

    /// MassGen's `_should_defer_peer_updates_until_restart` exception: a gated agent whose
    /// round has no accepted checklist yet, when the config allows it.
    fn midstream_before_checklist(&self, index: usize) -> bool {
        let checklist = &self.states[index].checklist;
        checklist.gated
            && !checklist.submitted()
            && self
                .rules
                .checklist
                .as_ref()
                .is_some_and(|rules| rules.midstream_before_submit)
    }

    pub(super) fn answer_counts(&self) -> Vec<usize> {
        self.states
            .iter()
            .map(|state| state.answers.len())
            .collect()
    }
}
