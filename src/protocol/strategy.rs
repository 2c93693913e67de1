//! How a turn's agents reach an answer (`orchestrator.strategy`): vote, council or debate,
//! the stages council and debate pass through, and the events only they emit.

use serde::{Deserialize, Serialize};

use super::ids::AgentId;

/// How agents reach the turn's answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// MassGen's own: agents see each other's answers, improve on them or vote; the most
    /// voted presents.
    #[default]
    Vote,
    /// Members answer alone, rank each other's answers anonymously, and a chairman
    /// synthesizes from the answers and the aggregate ranking.
    Council,
    /// Members answer, then critique named peers and revise their own for a number of
    /// rounds; a chairman synthesizes or the members vote.
    Debate,
}

impl Strategy {
    pub const ALL: [Self; 3] = [Self::Vote, Self::Council, Self::Debate];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Vote => "vote",
            Self::Council => "council",
            Self::Debate => "debate",
        }
    }

    /// The strategy after this one, as a toggle cycles them.
    pub fn next(self) -> Self {
        match self {
            Self::Vote => Self::Council,
            Self::Council => Self::Debate,
            Self::Debate => Self::Vote,
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|strategy| strategy.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A step of a council or debate turn. Rounds count from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Every member answers on its own, seeing no peer's answer.
    Answering,
    /// Council: every member ranks its peers' anonymised answers.
    Ranking,
    /// Debate: every member critiques named peers' answers.
    Critique { round: u32 },
    /// Debate: every member revises its own answer in the light of the critiques.
    Revision { round: u32 },
    /// Debate (`debate_finish: vote`): members vote for the best final answer.
    FinalVote,
    /// The chairman writes the final answer from the answers (and the ranking).
    Synthesis,
}

impl Stage {
    /// Short, for cards and status lines: "answering", "critique 1", "final vote".
    pub fn label(self) -> String {
        match self {
            Self::Answering => "answering".into(),
            Self::Ranking => "ranking".into(),
            Self::Critique { round } => format!("critique {round}"),
            Self::Revision { round } => format!("revision {round}"),
            Self::FinalVote => "final vote".into(),
            Self::Synthesis => "synthesis".into(),
        }
    }
}

/// How a ranking reached the orchestrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankingSource {
    /// The `rank` workflow tool.
    Tool,
    /// A "FINAL RANKING:" list in the reply of a model that ignored the tool.
    Text,
}

/// One member's place in the aggregate ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankedStanding {
    pub agent: AgentId,
    /// Borda points: on a ballot of `k` answers the first gets `k - 1`, the last 0.
    pub points: u32,
    /// Mean position (1 = first) over the ballots that ranked it; `None` when none did.
    pub mean_rank: Option<f64>,
    /// How many ballots ranked it.
    pub ballots: u32,
}

/// Why this chairman synthesizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "snake_case")]
pub enum ChairmanBasis {
    /// The config names it (`chairman:`).
    Configured,
    /// None configured: the member whose answer ranked first.
    TopRanked,
    /// None configured, in a debate: the first member still debating, in config order.
    FirstMember,
    /// The chairman before it (`failed`) could not finish; this one takes over.
    Fallback { failed: AgentId, reason: String },
}

/// What only council and debate turns report. `agent` on the enclosing event names the
/// member concerned, or none for the whole turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum StrategyEvent {
    /// The turn (no agent) or one member entered a stage.
    StageStarted { stage: Stage },
    /// A member ranked its peers' answers, best first. `shown`: the labels it saw, in the
    /// shuffled order it saw them, and whose answer each was.
    RankingSubmitted {
        order: Vec<AgentId>,
        shown: Vec<(String, AgentId)>,
        source: RankingSource,
    },
    /// A member's ranking never came or named no answer it was shown; it counts for nothing.
    RankingMissing { reason: String },
    /// The Borda totals over every usable ranking so far, best first (ties by mean rank,
    /// then config order). `complete`: every member has ranked or failed. `missing`: the
    /// members whose answer or ranking is absent, and why.
    RankingsAggregated {
        standings: Vec<RankedStanding>,
        missing: Vec<(AgentId, String)>,
        complete: bool,
    },
    /// Who synthesizes the final answer, and why.
    ChairmanChosen {
        chairman: AgentId,
        basis: ChairmanBasis,
    },
    /// Debate: the member's critique of named peers' answers in `round`.
    CritiqueSubmitted {
        round: u32,
        targets: Vec<AgentId>,
        content: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_cycle_through_all_three_and_parse_back() {
        let mut seen = vec![Strategy::default()];
        for _ in 0..2 {
            seen.push(seen[seen.len() - 1].next());
        }
        assert_eq!(seen, Strategy::ALL);
        assert_eq!(Strategy::Debate.next(), Strategy::Vote);
        for strategy in Strategy::ALL {
            assert_eq!(Strategy::parse(strategy.as_str()), Some(strategy));
        }
        assert_eq!(Strategy::parse(" Council "), Some(Strategy::Council));
        assert_eq!(Strategy::parse("majority"), None);
    }

    #[test]
    fn stages_serialize_with_their_round() {
        let json = serde_json::to_string(&StrategyEvent::StageStarted {
            stage: Stage::Critique { round: 2 },
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"event":"stage_started","stage":{"stage":"critique","round":2}}"#
        );
        assert_eq!(Stage::Revision { round: 1 }.label(), "revision 1");
    }
}
