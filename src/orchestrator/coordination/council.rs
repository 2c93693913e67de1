//! The council strategy after its answering stage, pure: which answers each member ranks
//! under which labels (shuffled per ranker), the ballots, the Borda aggregate, the members
//! missing and why, the chairman order and the final answer's footer.

use serde::Serialize;

use super::deliberation::{Deliberation, short};
use super::ranking::borda;
use crate::protocol::{AgentId, RankedStanding, RankingSource};
use crate::seeded::Seeded;

/// One answer as a ranker (or the chairman) sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownAnswer {
    pub label: String,
    pub agent: AgentId,
    pub content: String,
}

/// The labels of `shown`, comma-separated, for a message to the model.
pub fn label_list(shown: &[ShownAnswer]) -> String {
    shown
        .iter()
        .map(|answer| answer.label.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The answer of `shown` labelled `wanted` (any case, spaces around ignored).
pub fn find_label<'a>(shown: &'a [ShownAnswer], wanted: &str) -> Option<&'a ShownAnswer> {
    shown
        .iter()
        .find(|answer| answer.label.eq_ignore_ascii_case(wanted.trim()))
}

/// A usable ranking: whose answers, best first, and what the ranker was shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ballot {
    pub ranker: AgentId,
    pub order: Vec<AgentId>,
    pub shown: Vec<(String, AgentId)>,
    pub source: RankingSource,
    pub reasoning: String,
}

#[derive(Clone, Debug)]
pub struct Council {
    question: String,
    rank_own: bool,
    /// Config order.
    members: Vec<AgentId>,
    /// Config order: every member that answered.
    answers: Vec<(AgentId, String)>,
    /// Members whose model call failed (answering, ranking or chairing), and why.
    failed: Vec<(AgentId, String)>,
    /// Members whose ranking never came or named nothing usable, and why.
    unranked: Vec<(AgentId, String)>,
    ballots: Vec<Ballot>,
    /// Rankers yet to rank.
    pending: Vec<AgentId>,
}

/// `Response A`, … `Response Z`, then `Response AA`, ….
fn label(index: usize) -> String {
    let letter = |n: usize| char::from(b'A' + u8::try_from(n % 26).unwrap_or(0));
    if index < 26 {
        format!("Response {}", letter(index))
    } else {
        format!("Response {}{}", letter(index / 26 - 1), letter(index))
    }
}

impl Council {
    /// The answering stage is over: `answers` and `failed` as it left them (config order).
    /// Every member with an answer and something to rank becomes a ranker.
    pub fn new(
        question: &str,
        rank_own: bool,
        members: Vec<AgentId>,
        answers: Vec<(AgentId, String)>,
        failed: Vec<(AgentId, String)>,
    ) -> Self {
        let mut council = Self {
            question: question.to_string(),
            rank_own,
            members,
            answers,
            failed,
            unranked: Vec::new(),
            ballots: Vec::new(),
            pending: Vec::new(),
        };
        council.pending = council
            .answers
            .iter()
            .map(|(agent, _)| agent.clone())
            .filter(|agent| !council.shown(agent).is_empty())
            .collect();
        council
    }

    pub fn members(&self) -> &[AgentId] {
        &self.members
    }

    /// The members still to rank, config order.
    pub fn pending(&self) -> &[AgentId] {
        &self.pending
    }

    pub fn answers(&self) -> &[(AgentId, String)] {
        &self.answers
    }

    pub fn ballots(&self) -> &[Ballot] {
        &self.ballots
    }

    /// What `ranker` ranks: the other members' answers (its own too with `rank_own`),
    /// in an order seeded by the question and the ranker, labelled in that order. Where
    /// every ranker sees the same answers (`rank_own`), an order that happens to be the
    /// first answerer's is rotated, so the rankers never all see one order.
    pub fn shown(&self, ranker: &AgentId) -> Vec<ShownAnswer> {
        let mut answers = self.seeded_order(ranker);
        if self.rank_own
            && answers.len() >= 3
            && let Some((first, _)) = self.answers.first()
            && first != ranker
            && answers == self.seeded_order(first)
        {
            answers.rotate_left(1);
        }
        answers
            .into_iter()
            .enumerate()
            .map(|(index, (agent, content))| ShownAnswer {
                label: label(index),
                agent: agent.clone(),
                content: content.clone(),
            })
            .collect()
    }

    fn seeded_order(&self, ranker: &AgentId) -> Vec<&(AgentId, String)> {
        let mut answers: Vec<&(AgentId, String)> = self
            .answers
            .iter()
            .filter(|(agent, _)| self.rank_own || agent != ranker)
            .collect();
        Seeded::from_parts(&[&self.question, ranker.as_str()]).shuffle(&mut answers);
        answers
    }

    /// Checks and records `ranker`'s ranking (labels best first; a partial one counts).
    /// The error is for the model: it names the labels it may use.
    pub fn submit(
        &mut self,
        ranker: &AgentId,
        labels: &[String],
        source: RankingSource,
        reasoning: &str,
    ) -> Result<&Ballot, String> {
        if !self.pending.contains(ranker) {
            return Err("Your ranking is already recorded.".into());
        }
        let shown = self.shown(ranker);
        if labels.is_empty() {
            return Err(format!(
                "Rank at least one response. The labels: {}.",
                label_list(&shown)
            ));
        }
        let mut order: Vec<AgentId> = Vec::with_capacity(labels.len());
        for wanted in labels {
            let Some(answer) = find_label(&shown, wanted) else {
                return Err(format!(
                    "`{wanted}` is not a response you were shown. The labels: {}.",
                    label_list(&shown)
                ));
            };
            if order.contains(&answer.agent) {
                return Err(format!(
                    "`{}` appears twice; list each response once, best first.",
                    answer.label
                ));
            }
            order.push(answer.agent.clone());
        }
        self.pending.retain(|agent| agent != ranker);
        self.ballots.push(Ballot {
            ranker: ranker.clone(),
            order,
            shown: shown
                .into_iter()
                .map(|answer| (answer.label, answer.agent))
                .collect(),
            source,
            reasoning: reasoning.to_string(),
        });
        Ok(&self.ballots[self.ballots.len() - 1])
    }

    /// `ranker` ranked nothing usable; it counts for nothing.
    pub fn ranking_missing(&mut self, ranker: &AgentId, reason: &str) {
        if self.pending.contains(ranker) {
            self.pending.retain(|agent| agent != ranker);
            self.unranked.push((ranker.clone(), reason.to_string()));
        }
    }

    /// `member`'s model call failed (its ranking round or its synthesis).
    pub fn member_failed(&mut self, member: &AgentId, reason: &str) {
        self.pending.retain(|agent| agent != member);
        if !self.failed.iter().any(|(agent, _)| agent == member) {
            self.failed.push((member.clone(), reason.to_string()));
        }
    }

    /// Every ranker has ranked, failed or ranked nothing usable.
    pub fn is_complete(&self) -> bool {
        self.pending.is_empty()
    }

    /// The Borda totals over the ballots so far, best first (ties by mean rank, then
    /// config order).
    pub fn standings(&self) -> Vec<RankedStanding> {
        let candidates: Vec<String> = self
            .answers
            .iter()
            .map(|(agent, _)| agent.as_str().to_string())
            .collect();
        let ballots: Vec<Vec<String>> = self
            .ballots
            .iter()
            .map(|ballot| {
                ballot
                    .order
                    .iter()
                    .map(|agent| agent.as_str().to_string())
                    .collect()
            })
            .collect();
        borda(&candidates, &ballots)
            .into_iter()
            .map(|standing| RankedStanding {
                agent: AgentId::new(standing.candidate),
                points: standing.points,
                mean_rank: standing.mean_rank,
                ballots: standing.ballots,
            })
            .collect()
    }

    /// The members whose answer or ranking is absent, and why (config order).
    pub fn missing(&self) -> Vec<(AgentId, String)> {
        self.members
            .iter()
            .filter_map(|member| {
                self.failed
                    .iter()
                    .chain(&self.unranked)
                    .find(|(agent, _)| agent == member)
                    .cloned()
            })
            .collect()
    }

    /// Who may chair, in turn: the configured chairman first, then the members in
    /// aggregate order; members whose model failed are skipped.
    pub fn chairman_order(&self, configured: Option<&AgentId>) -> Vec<AgentId> {
        let mut order: Vec<AgentId> = Vec::new();
        let standings = self.standings();
        let candidates = configured
            .into_iter()
            .cloned()
            .chain(standings.into_iter().map(|standing| standing.agent));
        for candidate in candidates {
            let failed = self.failed.iter().any(|(agent, _)| agent == &candidate);
            if !failed && !order.contains(&candidate) {
                order.push(candidate);
            }
        }
        order
    }

    /// The answers in aggregate order, labelled `Response A` (the top-ranked) onwards,
    /// with their standing, for the chairman.
    pub fn ranked_answers(&self) -> Vec<(ShownAnswer, RankedStanding)> {
        self.standings()
            .into_iter()
            .enumerate()
            .filter_map(|(index, standing)| {
                let (agent, content) = self
                    .answers
                    .iter()
                    .find(|(agent, _)| agent == &standing.agent)?;
                let shown = ShownAnswer {
                    label: label(index),
                    agent: agent.clone(),
                    content: content.clone(),
                };
                Some((shown, standing))
            })
            .collect()
    }

    /// The best-ranked answer, the final answer when no chairman could synthesize.
    pub fn best_answer(&self) -> Option<(AgentId, String)> {
        let (answer, _) = self.ranked_answers().into_iter().next()?;
        Some((answer.agent, answer.content))
    }

    /// The last line of the final answer when a member failed or ranked nothing usable:
    /// "— Council: 3 of 4 members ranked; d failed: 401 Unauthorized".
    pub fn footer(&self) -> Option<String> {
        let missing = self.missing();
        if missing.is_empty() {
            return None;
        }
        let mut footer = format!(
            "— Council: {} of {} members ranked",
            self.ballots.len(),
            self.members.len()
        );
        for (member, reason) in &missing {
            let how = if self.failed.iter().any(|(agent, _)| agent == member) {
                "failed"
            } else {
                "ranked nothing usable"
            };
            footer.push_str(&format!("; {member} {how}: {}", short(reason)));
        }
        Some(footer)
    }
}

impl Deliberation for Council {
    fn unconfigured_basis(&self) -> crate::protocol::ChairmanBasis {
        crate::protocol::ChairmanBasis::TopRanked
    }

    fn chairman_order(&self, configured: Option<&AgentId>) -> Vec<AgentId> {
        Council::chairman_order(self, configured)
    }

    fn missing(&self) -> Vec<(AgentId, String)> {
        Council::missing(self)
    }

    fn member_failed(&mut self, member: &AgentId, reason: &str) {
        Council::member_failed(self, member, reason);
    }

    fn best_answer(&self) -> Option<(AgentId, String)> {
        Council::best_answer(self)
    }

    fn footer(&self) -> Option<String> {
        Council::footer(self)
    }
}

#[cfg(test)]
#[path = "council_tests.rs"]
mod tests;
