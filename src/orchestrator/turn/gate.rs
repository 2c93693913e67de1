//! Config planning mode at the start of a turn: one agent (picked at random, as MassGen
//! does) is asked whether the request involves irreversible MCP operations; the answer
//! decides which tools the gate blocks until the final presentation.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::Driver;
use super::side_call::SideCall;
use crate::orchestrator::planning_mode::{self, Decision};
use crate::orchestrator::turn_tools::Gate;
use crate::protocol::{EventMsg, Op};

/// Planning mode's gate, shared with every agent's turn tools.
#[derive(Default)]
pub(super) struct PlanningGate {
    pub(super) shared: Arc<Gate>,
    /// The gate blocks tools this turn (the decision was irreversible).
    pub(super) active: bool,
}

impl PlanningGate {
    fn apply(&mut self, decision: Decision) {
        self.active = decision.irreversible;
        self.shared.set(decision);
    }
}

impl Driver<'_> {
    /// Asks, if planning mode is on. Ops that arrive meanwhile are handled; returns false
    /// when the turn ended (cancelled) before the answer came.
    pub(super) async fn decide_planning_mode(&mut self, ops: &mut mpsc::Receiver<Op>) -> bool {
        if !self.settings.planning_mode {
            return true;
        }
        let participants = self.coordination.agents().to_vec();
        let Some(analyst) = pick(&participants) else {
            return true;
        };
        let Some(index) = self.agent_index(&analyst) else {
            return true;
        };
        let tools: Vec<String> = participants
            .iter()
            .filter_map(|agent| self.agent_index(agent))
            .flat_map(|index| self.run.routers[index].tools())
            .map(|spec| spec.name)
            .filter(|name| name.starts_with("mcp__"))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let isolated = self.run.workspaces.is_some();
        let prompt = planning_mode::analysis_prompt(&self.request.prompt, &tools, isolated);
        let model = self.model_link(&analyst, index);
        let asking = planning_mode::ask(&model, prompt);
        let decision = match self.side_call(asking, ops).await {
            SideCall::Replied(decision) => decision,
            // Out of time before the answer: block everything; the turn's own timeout
            // follows at once.
            SideCall::OutOfTime => Decision::block_everything(),
            SideCall::TurnEnded => return false,
        };
        self.decide(&analyst, decision);
        true
    }

    fn decide(&mut self, analyst: &crate::protocol::AgentId, decision: Decision) {
        self.emit(
            Some(analyst),
            EventMsg::PlanningModeDecided {
                irreversible: decision.irreversible,
                blocked_tools: decision.blocked_tools.iter().cloned().collect(),
            },
        );
        self.planning_gate.apply(decision);
    }
}

/// A participant picked at random (the clock's nanoseconds are random enough here).
fn pick(participants: &[crate::protocol::AgentId]) -> Option<crate::protocol::AgentId> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos() as usize);
    participants.get(nanos % participants.len().max(1)).cloned()
}
