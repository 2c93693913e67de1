//! The entries of a council or a debate: the stages the turn and each member enter, every
//! ballot (with the labels its ranker saw), a ranking that never came, the complete
//! aggregate, every critique with its targets (revisions are answers) and the chairman
//! with why it chairs.

use serde_json::json;

use crate::protocol::{ChairmanBasis, Event, StrategyEvent};
use crate::session::derived::coordination::Tracker;

impl Tracker {
    pub(super) fn strategy_entry(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        strategy: &StrategyEvent,
    ) {
        match strategy {
            StrategyEvent::StageStarted { stage } => {
                let details = match agent {
                    Some(agent) => format!("{agent} starts {}", stage.label()),
                    None => format!("Stage: {}", stage.label()),
                };
                self.push(
                    event,
                    "stage_started",
                    agent,
                    details,
                    json!({"stage": stage}),
                );
            }
            StrategyEvent::RankingSubmitted {
                order,
                shown,
                source,
            } => {
                let ranked: Vec<String> = order.iter().map(ToString::to_string).collect();
                let details = format!("Ranked {}", ranked.join(" > "));
                let context = json!({"order": order, "shown": shown, "source": source});
                self.push(event, "ranking_submitted", agent, details, context);
            }
            StrategyEvent::RankingMissing { reason } => {
                let details = format!("No usable ranking: {reason}");
                self.push(
                    event,
                    "ranking_missing",
                    agent,
                    details,
                    json!({"reason": reason}),
                );
            }
            StrategyEvent::RankingsAggregated {
                standings,
                missing,
                complete: true,
            } => {
                let points: Vec<String> = standings
                    .iter()
                    .map(|standing| format!("{} {}", standing.agent, standing.points))
                    .collect();
                let details = format!("Aggregate ranking (Borda): {}", points.join(", "));
                let context = json!({"standings": standings, "missing": missing});
                self.push(event, "rankings_aggregated", agent, details, context);
            }
            StrategyEvent::ChairmanChosen { chairman, basis } => {
                let why = match basis {
                    ChairmanBasis::Configured => "configured".to_string(),
                    ChairmanBasis::TopRanked => "top-ranked answer".to_string(),
                    ChairmanBasis::FirstMember => "first member".to_string(),
                    ChairmanBasis::Fallback { failed, reason } => {
                        format!("{failed} failed: {reason}")
                    }
                };
                let details = format!("Chairman: {chairman} ({why})");
                let context = json!({"chairman": chairman, "basis": basis});
                self.push(event, "chairman_chosen", agent, details, context);
            }
            StrategyEvent::CritiqueSubmitted {
                round,
                targets,
                content,
            } => {
                let names: Vec<String> = targets.iter().map(ToString::to_string).collect();
                let details = format!("Critique (round {round}) of {}", names.join(", "));
                let context = json!({"round": round, "targets": targets, "content": content});
                self.push(event, "critique_submitted", agent, details, context);
            }
            StrategyEvent::RankingsAggregated {
                complete: false, ..
            } => {}
        }
    }
}
