//! `orchestrator.strategy`, `rank_own` and `chairman`: how agents reach the answer, and
//! who chairs a council.

use super::Note;
use super::agents::parse_agent;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::{AgentConfig, CouncilConfig, OrchestratorConfig};
use crate::config::yaml_node::{Location, Node, Value};
use crate::protocol::{AgentId, Strategy};

/// `strategy`: vote (the default) or council; debate is refused until it is built.
pub(super) fn parse_strategy(orchestrator: &Fields<'_>) -> Result<Strategy, Problem> {
    let names = Strategy::ALL.map(Strategy::as_str);
    let Some(strategy) = orchestrator.choice("strategy", &names, Strategy::parse)? else {
        return Ok(Strategy::default());
    };
    if strategy == Strategy::Debate {
        return Err(Problem::at(
            orchestrator
                .get("strategy")
                .map_or(orchestrator.loc(), |node| node.loc),
            "`orchestrator.strategy: debate` is not built yet",
        )
        .help("use vote or council"));
    }
    Ok(strategy)
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
