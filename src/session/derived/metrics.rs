//! `metrics_summary.json`: the turn's tokens and costs per agent, its tool calls by tool,
//! its rounds one by one, and its model calls' timing.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::rounds;
use crate::protocol::{AgentId, Event, EventMsg, Spend};

#[derive(Default)]
struct AgentFigures {
    spend: Spend,
    answers: u32,
    votes: u32,
    rounds: u32,
}

#[derive(Default)]
struct ToolFigures {
    calls: u64,
    failures: u64,
    time_ms: u64,
    input_chars: u64,
    output_chars: u64,
}

pub fn metrics_summary(events: &[Event]) -> Value {
    let mut question = String::new();
    let mut winner: Option<AgentId> = None;
    let mut agents: BTreeMap<AgentId, AgentFigures> = BTreeMap::new();
    let mut tools: BTreeMap<String, ToolFigures> = BTreeMap::new();
    let mut arguments: BTreeMap<String, usize> = BTreeMap::new();
    let mut backends: BTreeMap<AgentId, String> = BTreeMap::new();
    for event in events {
        let msg = &event.msg;
        if let EventMsg::TurnStarted {
            question: asked,
            agents: roster,
            ..
        } = msg
        {
            question.clone_from(asked);
            for info in roster {
                agents.entry(info.id.clone()).or_default();
                backends.insert(info.id.clone(), info.backend.clone());
            }
            continue;
        }
        if let EventMsg::WinnerSelected { winner: chosen, .. } = msg {
            winner = Some(chosen.clone());
            continue;
        }
        let Some(agent) = event.agent.as_ref() else {
            continue;
        };
        let figures = agents.entry(agent.clone()).or_default();
        if let EventMsg::Usage {
            usage, cost_usd, ..
        } = msg
        {
            figures.spend.add(*usage, *cost_usd);
        } else if let EventMsg::RoundStarted { .. } = msg {
            figures.rounds += 1;
        } else if let EventMsg::AnswerSubmitted { .. } = msg {
            figures.answers += 1;
        } else if let EventMsg::VoteCast { .. } = msg {
            figures.votes += 1;
        } else if let EventMsg::ToolCallBegin {
            call_id,
            arguments: args,
            ..
        } = msg
        {
            arguments.insert(call_id.clone(), args.chars().count());
        } else if let EventMsg::ToolCallEnd {
            call_id,
            tool,
            ok,
            output,
            duration_ms,
        } = msg
        {
            let entry = tools.entry(tool.clone()).or_default();
            entry.calls += 1;
            entry.failures += u64::from(!ok);
            entry.time_ms += duration_ms;
            entry.input_chars += arguments.remove(call_id).unwrap_or(0) as u64;
            entry.output_chars += output.chars().count() as u64;
        } else if let EventMsg::ProviderTool(call) = msg {
            let entry = tools.entry(call.tool.clone()).or_default();
            entry.calls += 1;
            entry.failures += u64::from(!call.ok);
            entry.input_chars += call.input.chars().count() as u64;
            entry.output_chars += call.summary().chars().count() as u64;
        }
    }
    let mut total = Spend::default();
    let mut per_agent = serde_json::Map::new();
    for (id, figures) in &agents {
        total += figures.spend;
        per_agent.insert(
            id.to_string(),
            json!({
                "token_usage": figures.spend.usage,
                "estimated_cost": figures.spend.cost_usd,
                "cost_unknown": figures.spend.cost_unknown,
                "answers": figures.answers,
                "votes": figures.votes,
                "rounds": figures.rounds,
            }),
        );
    }
    json!({
        "meta": {
            "generated_at": events.last().map(|event| event.at.to_string()),
            "question": question,
            "num_agents": agents.len(),
            "winner": winner,
        },
        "totals": {
            "estimated_cost": total.cost_usd,
            "cost_unknown": total.cost_unknown,
            "input_tokens": total.usage.input_tokens,
            "output_tokens": total.usage.output_tokens,
            "reasoning_tokens": total.usage.reasoning_tokens,
            "cached_input_tokens": total.usage.cached_input_tokens,
            "token_source": total.usage.source(),
        },
        "agents": per_agent,
        "tools": {
            "total_calls": tools.values().map(|tool| tool.calls).sum::<u64>(),
            "total_failures": tools.values().map(|tool| tool.failures).sum::<u64>(),
            "total_execution_time_ms": tools.values().map(|tool| tool.time_ms).sum::<u64>(),
            "by_tool": tools.iter().map(|(name, tool)| (name.clone(), json!({
                "call_count": tool.calls,
                "success_count": tool.calls - tool.failures,
                "failure_count": tool.failures,
                "total_execution_time_ms": tool.time_ms,
                "total_input_chars": tool.input_chars,
                "total_output_chars": tool.output_chars,
            }))).collect::<serde_json::Map<String, Value>>(),
        },
        "rounds": rounds::rounds_summary(events),
        "api_timing": rounds::api_timing(events, &backends),
    })
}
