//! What a council or debate turn reported, folded for the screens: each member's stage
//! (the cards), the ballots, Borda totals and chairman (the rankings view), and the
//! critiques and revisions of each debate round (the debate thread).

use crate::protocol::{
    AgentId, ChairmanBasis, RankedStanding, RankingSource, Stage, Strategy, StrategyEvent,
};

/// One member's ranking of its peers, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ballot {
    pub ranker: AgentId,
    pub order: Vec<AgentId>,
    pub source: RankingSource,
}

/// The latest Borda totals (each `RankingsAggregated` replaces the last).
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    pub standings: Vec<RankedStanding>,
    pub missing: Vec<(AgentId, String)>,
    /// Every member has ranked or failed.
    pub complete: bool,
}

/// A member's critique of named peers in a debate round.
#[derive(Clone, Debug, PartialEq)]
pub struct Critique {
    pub critic: AgentId,
    pub targets: Vec<AgentId>,
    pub content: String,
}

/// One debate round: its critiques, then each member's revised answer.
#[derive(Clone, Debug, PartialEq)]
pub struct DebateRound {
    pub round: u32,
    pub critiques: Vec<Critique>,
    /// The answers members submitted during this round's revision stage, one per member.
    pub revisions: Vec<(AgentId, String)>,
}

impl DebateRound {
    fn new(round: u32) -> Self {
        Self {
            round,
            critiques: Vec::new(),
            revisions: Vec::new(),
        }
    }
}

/// The running (or last) turn's strategy news; emptied when a turn starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrategyState {
    /// The stage the whole turn entered last.
    pub stage: Option<Stage>,
    /// The stage each member started last.
    pub member_stages: Vec<(AgentId, Stage)>,
    pub ballots: Vec<Ballot>,
    /// Members whose ranking never came or named nothing usable, and why.
    pub missing: Vec<(AgentId, String)>,
    pub aggregate: Option<Aggregate>,
    pub chairman: Option<(AgentId, ChairmanBasis)>,
    pub rounds: Vec<DebateRound>,
}

impl StrategyState {
    /// Folds one strategy event about `agent` (none: the whole turn).
    pub fn apply(&mut self, agent: Option<&AgentId>, event: &StrategyEvent) {
        match (event, agent) {
            (StrategyEvent::StageStarted { stage }, None) => self.stage = Some(*stage),
            (StrategyEvent::StageStarted { stage }, Some(member)) => {
                self.member_stages.retain(|(id, _)| id != member);
                self.member_stages.push((member.clone(), *stage));
                if let Stage::Critique { round } | Stage::Revision { round } = stage {
                    self.round_mut(*round);
                }
            }
            (StrategyEvent::RankingSubmitted { order, source, .. }, Some(ranker)) => {
                self.ballots.retain(|ballot| &ballot.ranker != ranker);
                self.ballots.push(Ballot {
                    ranker: ranker.clone(),
                    order: order.clone(),
                    source: *source,
                });
            }
            (StrategyEvent::RankingMissing { reason }, Some(ranker)) => {
                self.missing.retain(|(id, _)| id != ranker);
                self.missing.push((ranker.clone(), reason.clone()));
            }
            (
                StrategyEvent::RankingsAggregated {
                    standings,
                    missing,
                    complete,
                },
                _,
            ) => {
                self.aggregate = Some(Aggregate {
                    standings: standings.clone(),
                    missing: missing.clone(),
                    complete: *complete,
                });
            }
            (StrategyEvent::ChairmanChosen { chairman, basis }, _) => {
                self.chairman = Some((chairman.clone(), basis.clone()));
            }
            (
                StrategyEvent::CritiqueSubmitted {
                    round,
                    targets,
                    content,
                },
                Some(critic),
            ) => self.round_mut(*round).critiques.push(Critique {
                critic: critic.clone(),
                targets: targets.clone(),
                content: content.clone(),
            }),
            // A ballot, a missing ranking or a critique names its member.
            (
                StrategyEvent::RankingSubmitted { .. }
                | StrategyEvent::RankingMissing { .. }
                | StrategyEvent::CritiqueSubmitted { .. },
                None,
            ) => {}
        }
    }

    /// An answer of `agent`: during its revision stage, that round's revised answer.
    pub fn answered(&mut self, agent: &AgentId, content: &str) {
        let Some(Stage::Revision { round }) = self.stage_of(agent) else {
            return;
        };
        let revisions = &mut self.round_mut(round).revisions;
        revisions.retain(|(id, _)| id != agent);
        revisions.push((agent.clone(), content.to_string()));
    }

    /// The stage `agent` started last.
    pub fn stage_of(&self, agent: &AgentId) -> Option<Stage> {
        self.member_stages
            .iter()
            .find(|(id, _)| id == agent)
            .map(|(_, stage)| *stage)
    }

    /// Whether the turn ranks answers (a council), as its options or its news say.
    pub fn is_council(&self, chosen: Option<Strategy>) -> bool {
        chosen == Some(Strategy::Council)
            || self.stage == Some(Stage::Ranking)
            || !self.ballots.is_empty()
            || !self.missing.is_empty()
            || self.aggregate.is_some()
    }

    fn round_mut(&mut self, round: u32) -> &mut DebateRound {
        let at = match self.rounds.iter().position(|known| known.round == round) {
            Some(at) => at,
            None => {
                let at = self
                    .rounds
                    .iter()
                    .position(|known| known.round > round)
                    .unwrap_or(self.rounds.len());
                self.rounds.insert(at, DebateRound::new(round));
                at
            }
        };
        &mut self.rounds[at]
    }
}

/// A timeline entry of a council turn (`agent` on the entry: the ranker).
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyEntry {
    /// A member's ranking, best first.
    Ballot {
        order: Vec<AgentId>,
        source: RankingSource,
    },
    /// A member's ranking never came or named nothing usable.
    RankingMissing { reason: String },
    /// The Borda totals once every member has ranked or failed, best first.
    Aggregate { totals: Vec<(AgentId, u32)> },
    ChairmanChosen {
        chairman: AgentId,
        basis: ChairmanBasis,
    },
}

impl StrategyEntry {
    /// The entry `event` makes, if it makes one (stages and critiques do not; a running
    /// aggregate waits for the complete one).
    pub fn of(event: &StrategyEvent) -> Option<Self> {
        Some(match event {
            StrategyEvent::RankingSubmitted { order, source, .. } => Self::Ballot {
                order: order.clone(),
                source: *source,
            },
            StrategyEvent::RankingMissing { reason } => Self::RankingMissing {
                reason: reason.clone(),
            },
            StrategyEvent::RankingsAggregated {
                standings,
                complete: true,
                ..
            } => Self::Aggregate {
                totals: standings
                    .iter()
                    .map(|standing| (standing.agent.clone(), standing.points))
                    .collect(),
            },
            StrategyEvent::ChairmanChosen { chairman, basis } => Self::ChairmanChosen {
                chairman: chairman.clone(),
                basis: basis.clone(),
            },
            StrategyEvent::RankingsAggregated { .. }
            | StrategyEvent::StageStarted { .. }
            | StrategyEvent::CritiqueSubmitted { .. } => return None,
        })
    }
}
