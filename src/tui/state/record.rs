//! What a finished turn leaves behind for `/inspect` and `/cost`: its outcome and duration,
//! and per agent the answers, votes with reasons, tokens and cost, plus the final answer.
//! Live turns are recorded from their cards when they end; resumed ones from their log.

use super::{AgentCard, CardItem};
use crate::protocol::{AgentId, AnswerLabel, Spend, TurnOutcome};
use crate::session::{VoteFate, VoteLedger};

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
    /// The persona's full text, when the agent worked under a generated one.
    pub persona: Option<String>,
}

/// A vote as it was cast, and whether it counted (a later answer may have reset it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastVote {
    pub target: String,
    pub target_label: AnswerLabel,
    pub reason: String,
    pub fate: VoteFate,
}

impl CastVote {
    /// `→ b (agent2.1): reason`, saying why it did not count when it did not:
    /// `→ b (agent2.1), reset by b's answer agent2.2: reason`. On one line.
    pub fn text(&self) -> String {
        let note = self.fate.note();
        let why = if note.is_empty() {
            String::new()
        } else {
            format!(", {note}")
        };
        format!(
            "→ {} ({}){why}: {}",
            self.target,
            self.target_label,
            self.reason.replace('\n', " ")
        )
    }
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
    /// The card's answers, and its votes as `ledger` has them.
    fn from_card(card: &AgentCard, ledger: &VoteLedger) -> Self {
        let id = card.info.id.clone();
        let answers = card
            .items
            .iter()
            .filter_map(|item| match item {
                CardItem::Answer { label, content } => Some((label.clone(), content.clone())),
                _ => None,
            })
            .collect();
        let votes = ledger
            .votes()
            .iter()
            .filter(|vote| vote.voter == id)
            .map(|vote| CastVote {
                target: vote.target.to_string(),
                target_label: vote.target_label.clone(),
                reason: vote.reason.clone(),
                fate: vote.fate.clone(),
            })
            .collect();
        Self {
            id,
            answers,
            votes,
            spend: card.spend,
            persona: card.persona.as_ref().map(|persona| persona.text.clone()),
        }
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

impl TurnRecord {
    /// The record a turn leaves, ended as given, from its `cards` and its votes as
    /// `ledger` has them.
    pub(super) fn ended(
        turn: u32,
        question: &str,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
        cards: &[AgentCard],
        ledger: &VoteLedger,
    ) -> Self {
        Self {
            turn,
            question: question.to_string(),
            outcome,
            winner: winner.cloned(),
            duration_ms,
            spend: cards_spend(cards),
            agents: cards
                .iter()
                .map(|card| AgentTurn::from_card(card, ledger))
                .collect(),
            final_answer: cards.iter().find_map(final_answer),
        }
    }

    /// The user chose `chosen` as the turn's final answer after it ended.
    pub(super) fn choose_final(&mut self, chosen: FinalAnswer) {
        self.winner = Some(chosen.agent.clone());
        self.final_answer = Some(chosen);
    }
}

/// Tokens and cost of `cards` together.
pub(super) fn cards_spend(cards: &[AgentCard]) -> Spend {
    let mut total = Spend::default();
    for card in cards {
        total += card.spend;
    }
    total
}

/// Tokens and cost per agent over finished turns `records` plus the `running` cards,
/// agents in the order they first appear.
pub(super) fn usage_by_agent(
    records: &[TurnRecord],
    running: &[AgentCard],
) -> Vec<(AgentId, Spend)> {
    let finished = records
        .iter()
        .flat_map(|turn| &turn.agents)
        .map(|part| (&part.id, part.spend));
    let running = running.iter().map(|card| (&card.info.id, card.spend));
    let mut totals: Vec<(AgentId, Spend)> = Vec::new();
    for (id, spend) in finished.chain(running) {
        match totals.iter_mut().find(|(known, _)| known == id) {
            Some((_, total)) => *total += spend,
            None => totals.push((id.clone(), spend)),
        }
    }
    totals
}

/// The earlier session this run goes on with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedSession {
    pub id: String,
    /// The first turn of its history, when it was cleared after turn 1.
    pub history_from: Option<u32>,
    /// Why it was taken: no earlier session ran this config, so `--continue` went on with
    /// the newest one.
    pub notice: Option<String>,
}

/// Votes that fared alike, as `/inspect` and `/export` list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteGroup {
    /// In the tally that chose the winner.
    Counted,
    /// Standing when a turn without a winner ended.
    Standing,
    /// A newer answer reset them.
    Reset,
    /// Void for another reason (voter dropped, coordination restarted).
    Void,
}

impl VoteGroup {
    pub const ALL: [Self; 4] = [Self::Counted, Self::Standing, Self::Reset, Self::Void];

    pub fn of(fate: &VoteFate) -> Self {
        match fate {
            VoteFate::Counted => Self::Counted,
            VoteFate::Standing => Self::Standing,
            VoteFate::Reset { .. } => Self::Reset,
            VoteFate::Void { .. } => Self::Void,
        }
    }

    /// What the group's heading says.
    pub fn title(self) -> &'static str {
        match self {
            Self::Counted => "Votes that counted",
            Self::Standing => "Votes standing when the turn ended, no winner chosen",
            Self::Reset => "Reset votes, not counted",
            Self::Void => "Votes that did not count",
        }
    }
}

impl TurnRecord {
    /// The turn's votes in `group`, with their voters, in roster order.
    pub fn votes_in(&self, group: VoteGroup) -> Vec<(&AgentId, &CastVote)> {
        self.agents
            .iter()
            .flat_map(|part| part.votes.iter().map(move |vote| (&part.id, vote)))
            .filter(|(_, vote)| VoteGroup::of(&vote.fate) == group)
            .collect()
    }
}
