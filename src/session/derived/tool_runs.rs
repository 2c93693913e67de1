//! The turn's tool calls one by one (MassGen's `ToolExecutionMetric`, the
//! `tool_executions` of `metrics_events.json`) and their totals by tool (the `tools`
//! sections of `metrics_summary.json`, for the turn and for each agent).

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::coordination::unix;
use crate::protocol::{AgentId, Event, EventMsg};

/// A failed call's output is kept as its error message up to this many characters.
const ERROR_MESSAGE_CHARS: usize = 500;

/// One tool call, from its start to its result.
pub(super) struct ToolRun {
    pub tool: String,
    /// MassGen's kinds: `mcp` (an MCP server's), `provider` (the model provider's own),
    /// `custom` (massgen's built-in tools and Python custom tools).
    pub tool_type: &'static str,
    pub call_id: String,
    pub agent: AgentId,
    pub round: u32,
    pub start: Timestamp,
    pub duration_ms: u64,
    pub ok: bool,
    pub error_message: Option<String>,
    pub input_chars: u64,
    pub output_chars: u64,
}

impl ToolRun {
    pub fn to_json(&self) -> Value {
        let start = unix(self.start);
        json!({
            "tool_name": self.tool,
            "tool_type": self.tool_type,
            "call_id": self.call_id,
            "agent_id": self.agent,
            "round_number": self.round,
            "start_time": start,
            "end_time": start + self.duration_ms as f64 / 1000.0,
            "execution_time_ms": self.duration_ms,
            "success": self.ok,
            "error_message": self.error_message,
            "input_chars": self.input_chars,
            "output_chars": self.output_chars,
            "input_tokens_est": self.input_chars / 4,
            "output_tokens_est": self.output_chars / 4,
        })
    }
}

/// Every finished tool call of the turn, in the order they finished.
pub(super) fn tool_runs(events: &[Event]) -> Vec<ToolRun> {
    let mut runs = Vec::new();
    let mut begun: BTreeMap<&str, (Timestamp, u64)> = BTreeMap::new();
    let mut rounds: BTreeMap<&AgentId, u32> = BTreeMap::new();
    for event in events {
        let Some(agent) = event.agent.as_ref() else {
            continue;
        };
        let msg = &event.msg;
        if let EventMsg::RoundStarted { round, .. } = msg {
            rounds.insert(agent, *round);
        } else if let EventMsg::ToolCallBegin {
            call_id, arguments, ..
        } = msg
        {
            begun.insert(call_id, (event.at, arguments.chars().count() as u64));
        } else if let EventMsg::ToolCallEnd {
            call_id,
            tool,
            ok,
            output,
            duration_ms,
            ..
        } = msg
        {
            let (start, input_chars) = begun.remove(call_id.as_str()).unwrap_or((event.at, 0));
            runs.push(ToolRun {
                tool: tool.clone(),
                tool_type: if tool.starts_with("mcp__") {
                    "mcp"
                } else {
                    "custom"
                },
                call_id: call_id.clone(),
                agent: agent.clone(),
                round: rounds.get(agent).copied().unwrap_or(0),
                start,
                duration_ms: *duration_ms,
                ok: *ok,
                error_message: (!ok).then(|| output.chars().take(ERROR_MESSAGE_CHARS).collect()),
                input_chars,
                output_chars: output.chars().count() as u64,
            });
        } else if let EventMsg::ProviderTool(call) = msg {
            runs.push(ToolRun {
                tool: call.tool.clone(),
                tool_type: "provider",
                call_id: call.call_id.clone(),
                agent: agent.clone(),
                round: rounds.get(agent).copied().unwrap_or(0),
                start: event.at,
                duration_ms: 0,
                ok: call.ok,
                error_message: (!call.ok).then(|| call.output.clone()),
                input_chars: call.input.chars().count() as u64,
                output_chars: call.summary().chars().count() as u64,
            });
        }
    }
    runs
}

#[derive(Default)]
struct ToolFigures {
    tool_type: &'static str,
    calls: u64,
    failures: u64,
    time_ms: u64,
    input_chars: u64,
    output_chars: u64,
}

/// A `tools` section: calls, failures and time in total and by tool.
pub(super) fn tools_summary<'a>(runs: impl IntoIterator<Item = &'a ToolRun>) -> Value {
    let mut by_tool: BTreeMap<&str, ToolFigures> = BTreeMap::new();
    for run in runs {
        let figures = by_tool.entry(run.tool.as_str()).or_default();
        figures.tool_type = run.tool_type;
        figures.calls += 1;
        figures.failures += u64::from(!run.ok);
        figures.time_ms += run.duration_ms;
        figures.input_chars += run.input_chars;
        figures.output_chars += run.output_chars;
    }
    json!({
        "total_calls": by_tool.values().map(|tool| tool.calls).sum::<u64>(),
        "total_failures": by_tool.values().map(|tool| tool.failures).sum::<u64>(),
        "total_execution_time_ms": by_tool.values().map(|tool| tool.time_ms).sum::<u64>(),
        "by_tool": by_tool.iter().map(|(name, tool)| ((*name).to_string(), json!({
            "call_count": tool.calls,
            "success_count": tool.calls - tool.failures,
            "failure_count": tool.failures,
            "total_execution_time_ms": tool.time_ms,
            "avg_execution_time_ms": tool.time_ms as f64 / tool.calls as f64,
            "total_input_chars": tool.input_chars,
            "total_output_chars": tool.output_chars,
            "input_tokens_est": tool.input_chars / 4,
            "output_tokens_est": tool.output_chars / 4,
            "tool_type": tool.tool_type,
        }))).collect::<serde_json::Map<String, Value>>(),
    })
}
