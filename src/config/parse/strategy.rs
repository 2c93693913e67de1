//! `orchestrator.strategy`, `rank_own` and `chairman`: how agents reach the answer, and
//! who chairs a council.

use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::{CouncilConfig, OrchestratorConfig};
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
        Some(Node {
            value: Value::Map(_),
            loc,
            ..
        }) => {
            return Err(Problem::at(
                *loc,
                "`orchestrator.chairman` as a mapping with its own backend block is not built \
                 yet",
            )
            .help("name one of the agents by its `id`, or leave it out (the top-ranked member chairs)"));
        }
        Some(_) => orchestrator
            .string("chairman")?
            .filter(|id| !id.trim().is_empty())
            .map(|id| AgentId::new(id.trim())),
    };
    Ok(CouncilConfig { rank_own, chairman })
}

/// `chairman` must name one of `agents`; the problem lists them.
pub(super) fn chairman_problem(
    top: &Fields<'_>,
    orchestrator: &OrchestratorConfig,
    agents: &[&str],
) -> Option<Problem> {
    let chairman = orchestrator.council.chairman.as_ref()?;
    if agents.contains(&chairman.as_str()) {
        return None;
    }
    let loc = top
        .get("orchestrator")
        .and_then(|node| Fields::of(node, "orchestrator").ok())
        .and_then(|fields| fields.get("chairman").map(|node| node.loc))
        .unwrap_or(Location { line: 1, column: 1 });
    Some(
        Problem::at(
            loc,
            format!(
                "orchestrator.chairman `{chairman}` names no agent; the agents are: {}",
                agents.join(", ")
            ),
        )
        .help("name the agent that synthesizes the council's answer by its `id`, or leave it out (the top-ranked member chairs)"),
    )
}

#[cfg(test)]
#[path = "strategy_tests.rs"]
mod tests;
