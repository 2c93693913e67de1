//! What a finished turn leaves behind for `/inspect` and `/cost`: its outcome and duration,
//! and per agent the answers, votes with reasons, tokens and cost, plus the final answer.
//! Live turns are recorded from their cards when they end; resumed ones from their log.

use super::{AgentCard, CardItem, UiState};
use crate::protocol::{AgentId, AnswerLabel, Spend, TurnOutcome};

/// A finished turn, for the header totals, `/inspect` and `/cost`.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRecord {
    pub turn: u32,
    pub question: String,
    pub outcome: TurnOutcome,
    pub winner: Option<AgentId>,
    pub duration_ms: u64,
    pub spend: Spend,
    /// Each agent's part, in the turn's roster order.
    pub agents: Vec<AgentTurn>,
    pub final_answer: Option<FinalAnswer>,
}

/// One agent's part in a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentTurn {
    pub id: AgentId,
    pub answers: Vec<(AnswerLabel, String)>,
    pub votes: Vec<CastVote>,
    pub spend: Spend,
}

/// A vote as it was cast (later answers may have voided it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastVote {
    pub target: String,
    pub target_label: AnswerLabel,
    pub reason: String,
}

/// The answer the winner presented (or its stored answer when presenting failed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalAnswer {
    pub agent: AgentId,
    pub label: AnswerLabel,
    pub content: String,
}

impl TurnRecord {
    /// The answer the turn chose: the one the user picked (an override names it), else the
    /// winner's newest answer, the one the votes were for. Never the final presentation,
    /// which restates it.
    pub fn chosen_answer(&self) -> Option<(&AgentId, &AnswerLabel)> {
        if let Some(chosen) = &self.final_answer
            && !chosen.label.is_final_presentation()
        {
            return Some((&chosen.agent, &chosen.label));
        }
        let winner = self.winner.as_ref()?;
        let part = self.agents.iter().find(|part| &part.id == winner)?;
        part.answers.last().map(|(label, _)| (winner, label))
    }
}

impl AgentTurn {
    fn from_card(card: &AgentCard) -> Self {
        let mut part = Self {
            id: card.info.id.clone(),
            answers: Vec::new(),
            votes: Vec::new(),
            spend: card.spend,
        };
        for item in &card.items {
            if let CardItem::Answer { label, content } = item {
                part.answers.push((label.clone(), content.clone()));
            } else if let CardItem::Vote {
                target_label,
                target,
                reason,
            } = item
            {
                part.votes.push(CastVote {
                    target: target.clone(),
                    target_label: target_label.clone(),
                    reason: reason.clone(),
                });
            }
        }
        part
    }
}

/// The card's finished final answer, if it presented one.
fn final_answer(card: &AgentCard) -> Option<FinalAnswer> {
    card.items.iter().rev().find_map(|item| {
        let CardItem::Final {
            label,
            body,
            done: true,
        } = item
        else {
            return None;
        };
        Some(FinalAnswer {
            agent: card.info.id.clone(),
            label: label.clone(),
            content: body.text.clone(),
        })
    })
}

impl UiState {
    /// The record the running (or last) turn leaves, ended as given.
    pub(super) fn record(
        &self,
        turn: u32,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) -> TurnRecord {
        TurnRecord {
            turn,
            question: self.question.clone(),
            outcome,
            winner: winner.cloned(),
            duration_ms,
            spend: self.turn_usage(),
            agents: self.agents.iter().map(AgentTurn::from_card).collect(),
            final_answer: self.agents.iter().find_map(final_answer),
        }
    }

    /// Tokens and cost per agent over the whole session (finished turns plus the running
    /// one), agents in the order they first appear.
    pub fn session_usage_by_agent(&self) -> Vec<(AgentId, Spend)> {
        let finished = self
            .turns
            .iter()
            .flat_map(|turn| &turn.agents)
            .map(|part| (&part.id, part.spend));
        let running = self
            .agents
            .iter()
            .filter(|_| self.outcome.is_none())
            .map(|card| (&card.info.id, card.spend));
        let mut totals: Vec<(AgentId, Spend)> = Vec::new();
        for (id, spend) in finished.chain(running) {
            match totals.iter_mut().find(|(known, _)| known == id) {
                Some((_, total)) => *total += spend,
                None => totals.push((id.clone(), spend)),
            }
        }
        totals
    }
}
