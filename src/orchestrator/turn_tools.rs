//! What a turn adds to an agent's own tools: its task-plan tools, the broadcast tools
//! (answered by the turn driver), and planning mode's gate in front of MCP tools.

use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

use super::approach_tool;
use super::broadcast::tools::{self as broadcast, BroadcastCall};
use super::channel::AgentSink;
use super::checklist_tool;
use super::coordination::{ApproachReply, ChecklistReply};
use super::gap_report_file;
use super::planning_mode::{self, Decision};
use super::task_tools::TaskPlanTools;
use crate::backend::{ToolCall, ToolSpec};
use crate::protocol::{BroadcastTarget, EventMsg};
use crate::tools::{ToolOutcome, ToolResult};

/// Planning mode's current decision, shared by every agent of the turn.
#[derive(Default)]
pub struct Gate(RwLock<Decision>);

impl Gate {
    pub fn set(&self, decision: Decision) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = decision;
    }

    pub fn blocks(&self, tool: &str) -> bool {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .blocks(tool)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadcastSettings {
    pub target: BroadcastTarget,
    pub wait_by_default: bool,
}

/// One agent's turn tools; all parts optional.
#[derive(Clone, Default)]
pub struct TurnTools {
    pub task_plan: Option<Arc<TaskPlanTools>>,
    pub broadcast: Option<BroadcastSettings>,
    /// `None` for the final presentation, which planning mode never blocks.
    pub gate: Option<Arc<Gate>>,
    /// Checklist-gated voting: `submit_checklist` and `draft_approach`, judged by the turn
    /// driver.
    pub checklist: bool,
    /// `criteria_mode: bootstrap_inline`: `submit_checklist` takes `proposed_criteria`.
    pub propose_criteria: bool,
    /// The agent's workspace, where `submit_checklist`'s `report_path` is read.
    pub workspace: Option<PathBuf>,
}

impl TurnTools {
    /// The tools to offer besides the workflow and router tools; `vote_only` rounds get
    /// no broadcast tools, as in MassGen.
    pub fn specs(&self, vote_only: bool) -> Vec<ToolSpec> {
        let mut specs = self
            .task_plan
            .as_ref()
            .map(|tools| tools.specs())
            .unwrap_or_default();
        if let Some(settings) = self.broadcast.filter(|_| !vote_only) {
            specs.extend(broadcast::specs(settings.target, settings.wait_by_default));
        }
        // Out of answers, the agent could not act on a `new_answer` verdict: no gate.
        if self.checklist && !vote_only {
            specs.push(checklist_tool::spec(self.propose_criteria));
            specs.push(approach_tool::spec());
        }
        specs
    }

    /// What the model reads instead of a result when planning mode blocks `tool`. The
    /// agent's own task-plan tools change nothing outside it and are never blocked.
    pub fn blocked(&self, tool: &str) -> Option<String> {
        if self
            .task_plan
            .as_ref()
            .is_some_and(|tools| tools.handles(tool))
        {
            return None;
        }
        self.gate
            .as_ref()
            .filter(|gate| gate.blocks(tool))
            .map(|_| planning_mode::blocked_message(tool))
    }

    /// Whether `tool` is one of the turn's tools (answered here, not by the router).
    pub fn handles(&self, tool: &str) -> bool {
        self.task_plan
            .as_ref()
            .is_some_and(|tools| tools.handles(tool))
            || (self.checklist
                && (tool == checklist_tool::SUBMIT_CHECKLIST
                    || tool == approach_tool::DRAFT_APPROACH))
            || (self.broadcast.is_some() && broadcast::is_broadcast_tool(tool))
    }

    /// Runs the call if it is one of the turn's tools; `None` leaves it to the router.
    pub async fn call(&self, call: &ToolCall, sink: &AgentSink) -> Option<ToolResult> {
        if let Some(tools) = self
            .task_plan
            .as_ref()
            .filter(|tools| tools.handles(&call.name))
        {
            return Some(tools.call(&call.name, &call.arguments).await);
        }
        if self.checklist && call.name == checklist_tool::SUBMIT_CHECKLIST {
            let report = gap_report_file::read(
                gap_report_file::report_path(&call.arguments).as_deref(),
                self.workspace.as_deref(),
            );
            return Some(submit_checklist(sink, &call.arguments, report).await);
        }
        if self.checklist && call.name == approach_tool::DRAFT_APPROACH {
            return Some(draft_approach(sink, &call.arguments).await);
        }
        let settings = self
            .broadcast
            .filter(|_| broadcast::is_broadcast_tool(&call.name))?;
        Some(
            match broadcast::parse(&call.name, &call.arguments, settings.wait_by_default) {
                Ok(parsed) => ask(sink, parsed).await,
                Err(message) => error(message),
            },
        )
    }
}

async fn ask(sink: &AgentSink, call: BroadcastCall) -> ToolResult {
    match sink.broadcast(call).await {
        Some(Ok(result)) => ToolResult::from(ToolOutcome {
            ok: true,
            output: result.to_string(),
        }),
        Some(Err(message)) => error(message),
        None => error("the turn ended before the question was answered".into()),
    }
}

async fn submit_checklist(
    sink: &AgentSink,
    arguments: &str,
    report: crate::orchestrator::coordination::Report,
) -> ToolResult {
    let proposed = checklist_tool::proposed_criteria(arguments);
    let scores = match checklist_tool::scores(arguments) {
        Ok(scores) => scores,
        Err(message) => {
            return ToolResult::from(ToolOutcome {
                ok: false,
                output: serde_json::json!({ "error": message }).to_string(),
            });
        }
    };
    match sink.checklist(scores, proposed, report).await {
        Some(reply) => ToolResult::from(ToolOutcome {
            ok: matches!(reply, ChecklistReply::Accepted(_)),
            output: reply.to_json().to_string(),
        }),
        None => error("the turn ended before the checklist was judged".into()),
    }
}

async fn draft_approach(sink: &AgentSink, arguments: &str) -> ToolResult {
    let arguments = match approach_tool::arguments(arguments) {
        Ok(arguments) => arguments,
        Err(message) => {
            return ToolResult::from(ToolOutcome {
                ok: false,
                output: serde_json::json!({ "valid": false, "error": message }).to_string(),
            });
        }
    };
    match sink.approach(arguments).await {
        Some(reply) => ToolResult::from(ToolOutcome {
            ok: matches!(reply, ApproachReply::Accepted(_)),
            output: reply.to_json().to_string(),
        }),
        None => error("the turn ended before the approach was judged".into()),
    }
}

/// MassGen's broadcast error result.
fn error(message: String) -> ToolResult {
    ToolResult {
        outcome: ToolOutcome {
            ok: false,
            output: serde_json::json!({"error": message, "status": "error"}).to_string(),
        },
        events: Vec::<EventMsg>::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::AgentId;

    #[test]
    fn the_gate_spares_the_agents_own_task_tools_and_nothing_named_like_them() {
        let gate = Arc::new(Gate::default());
        gate.set(Decision::block_everything());
        let tools = TurnTools {
            task_plan: Some(Arc::new(TaskPlanTools::new(
                &AgentId::new("scout"),
                10,
                None,
            ))),
            broadcast: None,
            gate: Some(gate),
            checklist: false,
            propose_criteria: false,
            workspace: None,
        };
        assert_eq!(tools.blocked("mcp__planning_scout__get_task_plan"), None);
        assert!(tools.blocked("mcp__planning_api__post").is_some());
        assert!(tools.blocked("mcp__filesystem__read_text_file").is_some());
        let presenting = TurnTools {
            gate: None,
            ..tools
        };
        assert_eq!(presenting.blocked("mcp__planning_api__post"), None);
    }
}
