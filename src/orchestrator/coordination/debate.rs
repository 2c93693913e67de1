//! The debate strategy after its answering stage, pure: its stages (critique and revision
//! per round, then the final vote or the synthesis), which peers' answers each member is
//! shown under their anonymous ids, the critiques, revisions and votes, the members that
//! failed, and the final answer's footer.

use super::council::{ShownAnswer, find_label, label_list};
pub use super::debate_thread::{Critique, DebateRound, FinalVote, Revision, VoteResult};
use super::deliberation::{Deliberation, short};
use crate::protocol::{AgentId, Stage};

#[derive(Clone, Debug)]
pub struct Debate {
    rounds_wanted: u32,
    /// Config order, with each member's anonymous id.
    members: Vec<(AgentId, String)>,
    /// Every member that answered, config order: its current answer.
    answers: Vec<(AgentId, String)>,
    /// Members whose model call failed (in any stage, or as chairman), and why.
    failed: Vec<(AgentId, String)>,
    rounds: Vec<DebateRound>,
    votes: Vec<FinalVote>,
    stage: Stage,
    /// Members yet to finish their round of the current stage.
    pending: Vec<AgentId>,
}

impl Debate {
    /// The answering stage is over: `answers` and `failed` as it left them (config order).
    pub fn new(
        rounds_wanted: u32,
        members: Vec<(AgentId, String)>,
        answers: Vec<(AgentId, String)>,
        failed: Vec<(AgentId, String)>,
    ) -> Self {
        Self {
            rounds_wanted,
            members,
            answers,
            failed,
            rounds: Vec::new(),
            votes: Vec::new(),
            stage: Stage::Answering,
            pending: Vec::new(),
        }
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn pending(&self) -> &[AgentId] {
        &self.pending
    }

    pub fn rounds(&self) -> &[DebateRound] {
        &self.rounds
    }

    pub fn votes(&self) -> &[FinalVote] {
        &self.votes
    }

    pub fn members(&self) -> Vec<AgentId> {
        self.members
            .iter()
            .map(|(agent, _)| agent.clone())
            .collect()
    }

    fn anon(&self, agent: &AgentId) -> String {
        self.members
            .iter()
            .find(|(member, _)| member == agent)
            .map_or_else(|| agent.to_string(), |(_, anon)| anon.clone())
    }

    fn is_failed(&self, agent: &AgentId) -> bool {
        self.failed.iter().any(|(failed, _)| failed == agent)
    }

    /// The members still in the debate, config order, with their current answers.
    pub fn live(&self) -> Vec<(AgentId, String)> {
        self.answers
            .iter()
            .filter(|(agent, _)| !self.is_failed(agent))
            .cloned()
            .collect()
    }

    pub fn answer_of(&self, agent: &AgentId) -> Option<&str> {
        self.answers
            .iter()
            .find(|(member, _)| member == agent)
            .map(|(_, content)| content.as_str())
    }

    /// The stage after the current one once every member is done with it: critique and
    /// revision for each round, then the final vote (`vote_finish`) or the synthesis;
    /// `None` after the final vote and the synthesis. With fewer than two members left
    /// there is nobody to debate with, and the debate goes straight to its finish.
    pub fn next_stage(&self, vote_finish: bool) -> Option<Stage> {
        let debating = self.live().len() >= 2;
        let finish = if vote_finish && debating {
            Stage::FinalVote
        } else {
            Stage::Synthesis
        };
        match self.stage {
            Stage::Answering | Stage::Ranking if debating => Some(Stage::Critique { round: 1 }),
            Stage::Critique { round } if debating => Some(Stage::Revision { round }),
            Stage::Revision { round } if debating && round < self.rounds_wanted => {
                Some(Stage::Critique { round: round + 1 })
            }
            Stage::FinalVote | Stage::Synthesis => None,
            Stage::Answering | Stage::Ranking | Stage::Critique { .. } | Stage::Revision { .. } => {
                Some(finish)
            }
        }
    }

    /// Enters `stage`: every live member has a round of it (the synthesis has none).
    pub fn enter(&mut self, stage: Stage) {
        self.stage = stage;
        self.pending = match stage {
            Stage::Critique { .. } | Stage::Revision { .. } | Stage::FinalVote => {
                self.live().into_iter().map(|(agent, _)| agent).collect()
            }
            Stage::Answering | Stage::Ranking | Stage::Synthesis => Vec::new(),
        };
        if let Stage::Critique { round } = stage {
            self.rounds.push(DebateRound {
                round,
                ..DebateRound::default()
            });
        }
    }

    /// Every member has finished its round of the current stage.
    pub fn stage_done(&self) -> bool {
        self.pending.is_empty()
    }

    /// The answers `agent` is shown: its live peers' current answers under their
    /// anonymous ids, config order.
    pub fn peers_shown(&self, agent: &AgentId) -> Vec<ShownAnswer> {
        self.live()
            .into_iter()
            .filter(|(peer, _)| peer != agent)
            .map(|(peer, content)| ShownAnswer {
                label: self.anon(&peer),
                agent: peer,
                content,
            })
            .collect()
    }

    /// Every live member's current answer under its anonymous id, config order.
    pub fn final_answers(&self) -> Vec<ShownAnswer> {
        self.live()
            .into_iter()
            .map(|(agent, content)| ShownAnswer {
                label: self.anon(&agent),
                agent,
                content,
            })
            .collect()
    }

    fn current_round(&mut self) -> Option<&mut DebateRound> {
        self.rounds.last_mut()
    }

    /// Checks and records `critic`'s critiques (`(anonymous id, text)`); the error is for
    /// the model and names the peers it may critique.
    pub fn submit_critiques(
        &mut self,
        critic: &AgentId,
        entries: &[(String, String)],
        from_text: bool,
    ) -> Result<Vec<Critique>, String> {
        if !matches!(self.stage, Stage::Critique { .. }) || !self.pending.contains(critic) {
            return Err("Your critique is already recorded.".into());
        }
        let shown = self.peers_shown(critic);
        if entries.is_empty() {
            return Err(format!(
                "Critique at least one peer's answer. The peers: {}.",
                label_list(&shown)
            ));
        }
        let mut critiques = Vec::with_capacity(entries.len());
        for (wanted, content) in entries {
            let Some(peer) = find_label(&shown, wanted) else {
                return Err(format!(
                    "`{wanted}` is not a peer whose answer you were shown. The peers: {}.",
                    label_list(&shown)
                ));
            };
            critiques.push(Critique {
                critic: critic.clone(),
                target: peer.agent.clone(),
                content: content.trim().to_string(),
                from_text,
            });
        }
        self.pending.retain(|agent| agent != critic);
        if let Some(round) = self.current_round() {
            round.critiques.extend(critiques.iter().cloned());
        }
        Ok(critiques)
    }

    /// The current (last) round's critiques.
    fn last_round_critiques(&self) -> impl Iterator<Item = &Critique> {
        self.rounds
            .last()
            .into_iter()
            .flat_map(|round| &round.critiques)
    }

    /// The critiques of `agent`'s answer in the current round: the critic's anonymous id
    /// and what it said.
    pub fn critiques_of(&self, agent: &AgentId) -> Vec<(String, String)> {
        self.last_round_critiques()
            .filter(|critique| &critique.target == agent)
            .map(|critique| (self.anon(&critique.critic), critique.content.clone()))
            .collect()
    }

    /// The last round's critiques as `(critic's id, target's id, text)`, for the chairman.
    pub fn last_critiques(&self) -> Vec<(String, String, String)> {
        self.last_round_critiques()
            .map(|critique| {
                let (critic, target) = (self.anon(&critique.critic), self.anon(&critique.target));
                (critic, target, critique.content.clone())
            })
            .collect()
    }

    /// Records `agent`'s revised answer (the same text defends it).
    pub fn submit_revision(&mut self, agent: &AgentId, content: &str) -> Result<Revision, String> {
        if !matches!(self.stage, Stage::Revision { .. }) || !self.pending.contains(agent) {
            return Err("Your revision is already recorded.".into());
        }
        let content = content.trim().to_string();
        let kept = self.answer_of(agent).map(str::trim) == Some(content.as_str());
        if let Some((_, answer)) = self.answers.iter_mut().find(|(member, _)| member == agent) {
            answer.clone_from(&content);
        }
        let revision = Revision {
            agent: agent.clone(),
            content,
            kept,
        };
        self.pending.retain(|member| member != agent);
        if let Some(round) = self.current_round() {
            round.revisions.push(revision.clone());
        }
        Ok(revision)
    }

    /// Records `voter`'s vote for the member whose anonymous id is `target`.
    pub fn submit_vote(
        &mut self,
        voter: &AgentId,
        target: &str,
        reason: &str,
    ) -> Result<AgentId, String> {
        if self.stage != Stage::FinalVote || !self.pending.contains(voter) {
            return Err("Your vote is already recorded.".into());
        }
        let answers = self.final_answers();
        let Some(chosen) = find_label(&answers, target) else {
            return Err(format!(
                "`{target}` has no final answer. Vote for one of: {}.",
                label_list(&answers)
            ));
        };
        self.pending.retain(|member| member != voter);
        self.votes.push(FinalVote {
            voter: voter.clone(),
            target: chosen.agent.clone(),
            reason: reason.to_string(),
        });
        Ok(chosen.agent.clone())
    }

    /// `member` finished its round of the stage without a usable result: it keeps its
    /// answer and stays in the debate.
    pub fn round_missed(&mut self, member: &AgentId) {
        self.pending.retain(|agent| agent != member);
    }

    /// Most votes wins; ties go to config order; with no votes, the first live member.
    pub fn vote_result(&self) -> Option<VoteResult> {
        let live = self.live();
        let tally: Vec<(AgentId, u32)> = live
            .iter()
            .map(|(agent, _)| {
                let votes = self
                    .votes
                    .iter()
                    .filter(|vote| &vote.target == agent)
                    .count();
                (agent.clone(), u32::try_from(votes).unwrap_or(u32::MAX))
            })
            .collect();
        let best = tally.iter().map(|(_, votes)| *votes).max()?;
        let leaders: Vec<&AgentId> = tally
            .iter()
            .filter(|(_, votes)| *votes == best)
            .map(|(agent, _)| agent)
            .collect();
        Some(VoteResult {
            winner: leaders.first().map(|agent| (*agent).clone())?,
            is_tie: best > 0 && leaders.len() > 1,
            tally,
        })
    }
}

impl Deliberation for Debate {
    fn unconfigured_basis(&self) -> crate::protocol::ChairmanBasis {
        crate::protocol::ChairmanBasis::FirstMember
    }

    fn chairman_order(&self, configured: Option<&AgentId>) -> Vec<AgentId> {
        let mut order: Vec<AgentId> = Vec::new();
        let live = self.live().into_iter().map(|(agent, _)| agent);
        for candidate in configured.cloned().into_iter().chain(live) {
            if !self.is_failed(&candidate) && !order.contains(&candidate) {
                order.push(candidate);
            }
        }
        order
    }

    fn missing(&self) -> Vec<(AgentId, String)> {
        self.members
            .iter()
            .filter_map(|(member, _)| self.failed.iter().find(|(agent, _)| agent == member))
            .cloned()
            .collect()
    }

    fn member_failed(&mut self, member: &AgentId, reason: &str) {
        self.pending.retain(|agent| agent != member);
        if !self.is_failed(member) {
            self.failed.push((member.clone(), reason.to_string()));
        }
    }

    /// The vote's winner when there was a vote, else the first live member's answer.
    fn best_answer(&self) -> Option<(AgentId, String)> {
        let winner = if self.votes.is_empty() {
            self.live().into_iter().next().map(|(agent, _)| agent)
        } else {
            self.vote_result().map(|result| result.winner)
        }?;
        let content = self.answer_of(&winner)?.to_string();
        Some((winner, content))
    }

    /// "— Debate: 2 of 3 members debated to the end; c failed: 401 Unauthorized".
    fn footer(&self) -> Option<String> {
        let missing = self.missing();
        if missing.is_empty() {
            return None;
        }
        let mut footer = format!(
            "— Debate: {} of {} members debated to the end",
            self.live().len(),
            self.members.len()
        );
        for (member, reason) in &missing {
            footer.push_str(&format!("; {member} failed: {}", short(reason)));
        }
        Some(footer)
    }
}

#[cfg(test)]
#[path = "debate_tests.rs"]
mod tests;
