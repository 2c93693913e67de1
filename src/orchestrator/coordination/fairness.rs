//! MassGen's fairness gate: an agent may not run more than `fairness_lead_cap_answers`
//! answers ahead of the slowest active peer (its `new_answer` is refused, and it is not
//! started again until peers catch up), and the newest-first choice of the peers' answers
//! injected into a round under `max_midstream_injections_per_round`.

use super::{Coordination, FreshAnswer, Rejection};
use crate::protocol::EnforcementReason;

impl Coordination {
    /// Agents the gate compares: neither killed nor holding a vote.
    fn fairness_peers(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.states
            .iter()
            .enumerate()
            .filter(move |(other, state)| *other != index && !state.killed && state.vote.is_none())
            .map(|(other, _)| other)
    }

    /// How far ahead of the slowest active peer another answer would put the agent, when
    /// that is more than the lead cap (MassGen's `projected_lead`), with the cap. A cap of
    /// 0 acts as 1: MassGen would refuse even the first answer of the turn under it, so no
    /// turn could ever finish.
    fn projected_lead_over_cap(&self, index: usize) -> Option<(usize, u32)> {
        let cap = self.rules.fairness.lead_cap()?.max(1);
        let state = &self.states[index];
        if state.killed || state.vote.is_some() {
            return None;
        }
        let slowest = self
            .fairness_peers(index)
            .map(|other| self.states[other].answers.len())
            .min()?;
        let projected = (state.answers.len() + 1).saturating_sub(slowest);
        (projected > cap as usize).then_some((projected, cap))
    }

    /// MassGen's refusal of a `new_answer` over the lead cap.
    pub(super) fn lead_cap_refusal(&self, index: usize) -> Option<Rejection> {
        let (projected, cap) = self.projected_lead_over_cap(index)?;
        Some(Rejection {
            reason: EnforcementReason::FairnessLeadCap,
            message: format!(
                "Fairness lead cap reached: submitting another `new_answer` would put you \
                 {projected} answer(s) ahead of the slowest active peer (cap={cap}). Please wait \
                 for peers to catch up or vote for an existing answer."
            ),
        })
    }

    /// An agent that has answered and whose next answer the cap would refuse waits for its
    /// peers (who are behind it) before its next round, as in MassGen.
    pub(super) fn paused_for_fairness(&self, index: usize) -> bool {
        !self.states[index].answers.is_empty()
            && !self.rules.disable_injection
            && self.projected_lead_over_cap(index).is_some()
    }

    /// The lead cap holds `agent` back from its next round: its lead over the slowest
    /// active peer and the cap, while it is alive, out of a round, without a vote and
    /// paused for its peers.
    pub fn fairness_hold(&self, agent: &crate::protocol::AgentId) -> Option<(u32, u32)> {
        let index = self.index(agent)?;
        let state = &self.states[index];
        if state.in_round || !self.paused_for_fairness(index) {
            return None;
        }
        let (projected, cap) = self.projected_lead_over_cap(index)?;
        let lead = u32::try_from(projected.saturating_sub(1)).unwrap_or(u32::MAX);
        Some((lead, cap))
    }

    /// Of the unseen answers, those this round may still take in: all of them without a
    /// cap, else the newest first up to what is left of `max_midstream_injections_per_round`.
    pub(super) fn within_injection_cap(
        &self,
        index: usize,
        mut fresh: Vec<(usize, FreshAnswer)>,
    ) -> Vec<(usize, FreshAnswer)> {
        let Some(cap) = self.rules.fairness.injection_cap() else {
            return fresh;
        };
        let left = cap.saturating_sub(self.states[index].injected_this_round) as usize;
        fresh.sort_by_key(|(author, _)| std::cmp::Reverse(self.states[*author].answered_at));
        fresh.truncate(left);
        fresh
    }
}
