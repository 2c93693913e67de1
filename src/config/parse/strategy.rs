//! `orchestrator.strategy`, `rank_own`, `chairman`, `debate_rounds` and `debate_finish`:
//! how agents reach the answer, who chairs, and how long a debate lasts and how it ends.

use super::Note;
use super::agents::parse_agent;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::{
    AgentConfig, CouncilConfig, DebateConfig, DebateFinish, OrchestratorConfig,
};
use crate::config::yaml_node::{Location, Node, Value};
use crate::protocol::{AgentId, Strategy};

/// `strategy`: vote (the default), council or debate.
pub(super) fn parse_strategy(orchestrator: &Fields<'_>) -> Result<Strategy, Problem> {
    let names = Strategy::ALL.map(Strategy::as_str);
    Ok(orchestrator
        .choice("strategy", &names, Strategy::parse)?
        .unwrap_or_default())
}

/// The most rounds of critique and revision a debate may have.
const MAX_DEBATE_ROUNDS: u64 = 10;

/// `debate_rounds` (1–10, default 2) and `debate_finish` (synthesize, the default, or vote).
pub(super) fn parse_debate(orchestrator: &Fields<'_>) -> Result<DebateConfig, Problem> {
    let defaults = DebateConfig::default();
    let rounds = match orchestrator.unsigned("debate_rounds")? {
        None => defaults.rounds,
        Some(rounds @ 1..=MAX_DEBATE_ROUNDS) => u32::try_from(rounds).unwrap_or(defaults.rounds),
        Some(rounds) => {
            let loc = orchestrator
                .get("debate_rounds")
                .map_or(orchestrator.loc(), |node| node.loc);
            return Err(Problem::at(
                loc,
                format!(
                    "`orchestrator.debate_rounds` cannot be {rounds}: a debate has 1 to \
                     {MAX_DEBATE_ROUNDS} rounds of critique and revision"
                ),
            )
            .help("e.g. `debate_rounds: 2` (the default)"));
        }
    };
    let finish = orchestrator
        .choice("debate_finish", &DebateFinish::NAMES, DebateFinish::parse)?
        .unwrap_or_default();
    Ok(DebateConfig { rounds, finish })
}

/// `rank_own` and `chairman` (an agent id; checked against the agents by
/// [`chairman_problem`]).
pub(super) fn parse_council(orchestrator: &Fields<'_>) -> Result<CouncilConfig, Problem> {
    let rank_own = orchestrator.bool("rank_own")?.unwrap_or(false);
    let chairman = match orchestrator.get("chairman") {
        None => None,
        Some(Node {
            value: Value::Null, ..
        }) => None,
        // Its own backend block: read with the agents (`seat_chairman`).
        Some(Node {
            value: Value::Map(_),
            ..
        }) => None,
        Some(_) => orchestrator
            .string("chairman")?
            .filter(|id| !id.trim().is_empty())
            .map(|id| AgentId::new(id.trim())),
    };
    Ok(CouncilConfig {
        rank_own,
        chairman,
        chairman_outside: false,
    })
}

/// A chairman with its own backend block (`chairman: {id: judge, backend: {…}}`) is read
/// like an agent and joins the run's agents, last, as a chairman that neither answers nor
/// ranks; then `chairman` must name an agent (the problems list them).
pub(super) fn seat_chairman<'a>(
    top: &Fields<'a>,
    orchestrator: &mut OrchestratorConfig,
    agents: &mut Vec<(AgentConfig, &'a Node)>,
    notes: &mut Vec<Note>,
) -> Vec<Problem> {
    let node = top
        .get("orchestrator")
        .and_then(|node| Fields::of(node, "orchestrator").ok())
        .and_then(|fields| fields.get("chairman"));
    let loc = node.map_or(Location { line: 1, column: 1 }, |node| node.loc);
    if let Some(node) = node.filter(|node| matches!(node.value, Value::Map(_))) {
        let chairman = Fields::of(node, "orchestrator.chairman")
            .map_err(|problem| vec![problem])
            .and_then(|fields| parse_agent(&fields, notes));
        let chairman = match chairman {
            Ok(chairman) => chairman,
            Err(problems) => return problems,
        };
        if agents.iter().any(|(agent, _)| agent.id == chairman.id) {
            return vec![
                Problem::at(
                    loc,
                    format!(
                        "orchestrator.chairman has the id `{}` of an agent that answers",
                        chairman.id
                    ),
                )
                .help(format!(
                    "give the chairman its own id, or name that agent alone: `chairman: {}`",
                    chairman.id
                )),
            ];
        }
        orchestrator.council.chairman = Some(chairman.id.clone());
        orchestrator.council.chairman_outside = true;
        agents.push((chairman, node));
        return Vec::new();
    }
    let Some(chairman) = orchestrator.council.chairman.as_ref() else {
        return Vec::new();
    };
    let ids: Vec<&str> = agents.iter().map(|(agent, _)| agent.id.as_str()).collect();
    if ids.contains(&chairman.as_str()) {
        return Vec::new();
    }
    vec![Problem::at(
        loc,
        format!(
            "orchestrator.chairman `{chairman}` names no agent; the agents are: {}",
            ids.join(", ")
        ),
    )
    .help("name the agent that synthesizes the council's answer by its `id`, give it its own block (`chairman: {id: judge, backend: {type: …}}`), or leave it out (the top-ranked member chairs)")]
}

#[cfg(test)]
#[path = "strategy_tests.rs"]
mod tests;
