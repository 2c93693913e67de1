//! Council turns with scripted members: they answer alone, rank each other's answers under
//! labels shuffled per ranker (their own left out unless `rank_own`), and a chairman
//! synthesizes; failures are named in the footer and a failed chairman is replaced.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod failures;
mod logs;
mod stages;

use crate::support::{Scenario, final_answer, run_once};
use massgen::backend::Message;
use massgen::protocol::{
    AgentId, ChairmanBasis, Event, EventMsg, Mode, RankingSource, Stage, Strategy, StrategyEvent,
    TurnOptions,
};

fn member(id: &str, answer: &str, extra: &str) -> String {
    format!(
        "  - id: {id}\n    backend: {{type: scripted, tokens_per_second: 0, answer: \"{answer}\"{extra}}}\n"
    )
}

fn council(members: &[String], orchestrator: &str) -> String {
    format!(
        "agents:\n{}orchestrator:\n  strategy: council\n{orchestrator}",
        members.concat()
    )
}

fn strategy(events: &[Event]) -> Vec<(Option<String>, StrategyEvent)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Strategy(inner) => Some((
                event.agent.as_ref().map(|agent| agent.to_string()),
                inner.clone(),
            )),
            _ => None,
        })
        .collect()
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
    request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::User { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}
