//! Council turns with scripted members: they answer alone, rank each other's answers under
//! labels shuffled per ranker (their own left out unless `rank_own`), and a chairman
//! synthesizes; failures are named in the footer and a failed chairman is replaced.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod failures;
mod logs;
mod stages;

use crate::support::{Scenario, final_answer, run_once};
use massgen::protocol::{
    AgentId, ChairmanBasis, Event, EventMsg, Mode, RankingSource, Stage, Strategy, StrategyEvent,
    TurnOptions,
};

fn member(id: &str, answer: &str, extra: &str) -> String {
    crate::support::scripted_member(id, answer, extra)
}

fn council(members: &[String], orchestrator: &str) -> String {
    format!(
        "agents:\n{}orchestrator:\n  strategy: council\n{orchestrator}",
        members.concat()
    )
}

fn strategy(events: &[Event]) -> Vec<(Option<String>, StrategyEvent)> {
    crate::support::strategy_events(events)
}

struct Ballot {
    ranker: String,
    order: Vec<AgentId>,
    shown: Vec<(String, AgentId)>,
    source: RankingSource,
}

fn ballots(events: &[Event]) -> Vec<Ballot> {
    strategy(events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::RankingSubmitted {
                order,
                shown,
                source,
            } => Some(Ballot {
                ranker: agent?,
                order,
                shown,
                source,
            }),
            _ => None,
        })
        .collect()
}

fn chairmen(events: &[Event]) -> Vec<(String, ChairmanBasis)> {
    strategy(events)
        .into_iter()
        .filter_map(|(_, event)| match event {
            StrategyEvent::ChairmanChosen { chairman, basis } => {
                Some((chairman.to_string(), basis))
            }
            _ => None,
        })
        .collect()
}

fn turn_winner(events: &[Event]) -> Option<String> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::TurnFinished { winner, .. } => winner.as_ref().map(ToString::to_string),
        _ => None,
    })
}

fn last_aggregate(events: &[Event]) -> (Vec<String>, Vec<String>, bool) {
    strategy(events)
        .into_iter()
        .filter_map(|(_, event)| match event {
            StrategyEvent::RankingsAggregated {
                standings,
                missing,
                complete,
            } => Some((
                standings.iter().map(|s| s.agent.to_string()).collect(),
                missing.iter().map(|(agent, _)| agent.to_string()).collect(),
                complete,
            )),
            _ => None,
        })
        .last()
        .expect("an aggregate")
}

fn user_text(request: &massgen::backend::ChatRequest) -> String {
    crate::support::user_text(request)
}
