//! The plain display's council and debate lines: the stages the turn enters, one line per
//! ballot (best first, with the labels the ranker saw), a ranking that never came, the
//! aggregate once complete, each critique with its targets, and the chairman with why it
//! chairs.

use std::io::{self, Write};

use super::PlainPrinter;
use crate::protocol::{
    AgentId, ChairmanBasis, RankedStanding, RankingSource, Stage, StrategyEvent,
};
use crate::sanitize::sanitize_for_terminal as clean;

impl<W: Write> PlainPrinter<W> {
    pub(super) fn strategy_line(
        &mut self,
        agent: Option<&AgentId>,
        event: &StrategyEvent,
    ) -> io::Result<()> {
        match (event, agent) {
            (StrategyEvent::StageStarted { stage }, None) => {
                let strategy = match stage {
                    Stage::Ranking => "Council",
                    Stage::Critique { .. } | Stage::Revision { .. } | Stage::FinalVote => "Debate",
                    Stage::Answering | Stage::Synthesis => "Stage",
                };
                let line = self
                    .style
                    .bold(&format!("── {strategy}: {} ──", stage.label()));
                self.note(&line)
            }
            (
                StrategyEvent::CritiqueSubmitted {
                    round,
                    targets,
                    content,
                },
                Some(agent),
            ) => {
                let targets: Vec<String> = targets.iter().map(|target| self.name(target)).collect();
                let first = content.lines().next().unwrap_or_default();
                let line = format!(
                    "✎ critiques {} (round {round}): {}",
                    targets.join(", "),
                    clean(first)
                );
                self.agent_line(agent, &line)
            }
            (
                StrategyEvent::RankingSubmitted {
                    order,
                    shown,
                    source,
                },
                Some(agent),
            ) => {
                let ranked: Vec<String> = order
                    .iter()
                    .map(|member| {
                        let label = shown
                            .iter()
                            .find(|(_, shown)| shown == member)
                            .map_or("?", |(label, _)| label.as_str());
                        format!("{} ({label})", self.name(member))
                    })
                    .collect();
                let how = match source {
                    RankingSource::Tool => "",
                    RankingSource::Text => " · from text",
                };
                let line = format!("⚖ ranks {}{how}", ranked.join(" > "));
                self.agent_line(agent, &line)
            }
            (StrategyEvent::RankingMissing { reason }, Some(agent)) => {
                let line = self
                    .style
                    .warn(&format!("⚖ ranked nothing usable: {}", clean(reason)));
                self.agent_line(agent, &line)
            }
            (
                StrategyEvent::RankingsAggregated {
                    standings,
                    complete: true,
                    ..
                },
                _,
            ) => {
                let line = format!("⚖ Aggregate (Borda): {}", self.standings(standings));
                self.note(&line)
            }
            (StrategyEvent::ChairmanChosen { chairman, basis }, _) => {
                let why = match basis {
                    ChairmanBasis::Configured => "configured".to_string(),
                    ChairmanBasis::TopRanked => "its answer ranked first".to_string(),
                    ChairmanBasis::FirstMember => "the first member still debating".to_string(),
                    ChairmanBasis::Fallback { failed, reason } => {
                        format!("{failed} could not chair: {}", clean(reason))
                    }
                };
                let line = format!(
                    "{} {} — {why}",
                    self.style.bold("🪑 Chairman:"),
                    self.name(chairman)
                );
                self.note(&line)
            }
            _ => Ok(()),
        }
    }

    fn standings(&self, standings: &[RankedStanding]) -> String {
        standings
            .iter()
            .map(|standing| format!("{} {}", self.name(&standing.agent), standing.points))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}
