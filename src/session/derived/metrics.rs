//! `metrics_summary.json` and `metrics_events.json` as MassGen writes them: the turn's
//! tokens and costs per agent (with each agent's `round_history` and `tool_metrics`), its
//! tool calls by tool, its rounds one by one, and its model calls' timing. MassGen's own
//! `massgen logs summary|list|tools` reads these files; one written by massgen must read
//! the same there.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde_json::{Value, json};

use super::coordination::unix;
use super::pretty::{Piece, write_document};
use super::rounds::{self, Round};
use super::tool_runs::{self, ToolRun};
use crate::protocol::{AgentId, Event, EventMsg, Spend};

#[derive(Default)]
struct AgentFigures {
    spend: Spend,
    answers: u32,
    votes: u32,
    rounds: u32,
}

/// What the turn asked, who took part and who won, read from its events.
struct TurnFacts {
    question: String,
    winner: Option<AgentId>,
    agents: BTreeMap<AgentId, AgentFigures>,
    backends: BTreeMap<AgentId, String>,
}

fn turn_facts(events: &[Event]) -> TurnFacts {
    let mut facts = TurnFacts {
        question: String::new(),
        winner: None,
        agents: BTreeMap::new(),
        backends: BTreeMap::new(),
    };
    for event in events {
        let msg = &event.msg;
        if let EventMsg::TurnStarted {
            question, agents, ..
        } = msg
        {
            facts.question.clone_from(question);
            for info in agents {
                facts.agents.entry(info.id.clone()).or_default();
                facts.backends.insert(info.id.clone(), info.backend.clone());
            }
            continue;
        }
        if let EventMsg::WinnerSelected { winner, .. } = msg {
            facts.winner = Some(winner.clone());
            continue;
        }
        let Some(agent) = event.agent.as_ref() else {
            continue;
        };
        let figures = facts.agents.entry(agent.clone()).or_default();
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
        }
    }
    facts
}

/// When the file was made: the turn's last event, in seconds since the epoch.
fn generated_at(events: &[Event]) -> Option<f64> {
    events.last().map(|event| unix(event.at))
}

/// Writes `metrics_summary.json`: each agent's entry and each round are built and written
/// one at a time (a large team's turn has thousands of rounds, each listed twice), the
/// bytes `serde_json`'s pretty form of the whole.
pub fn write_metrics_summary(events: &[Event], out: &mut dyn Write) -> io::Result<()> {
    let facts = turn_facts(events);
    let rounds = rounds::rounds(events);
    let runs = tool_runs::tool_runs(events);
    let mut total = Spend::default();
    for figures in facts.agents.values() {
        total += figures.spend;
    }
    // `facts.agents` is sorted by id, as the map's keys are written.
    let agents = facts.agents.iter().map(|(id, figures)| {
        let entry = agent_json(id, figures, &rounds, &runs);
        (id.to_string(), Piece::Whole(entry))
    });
    let summary = Piece::object(vec![
        (
            "meta",
            Piece::Whole(json!({
                "generated_at": generated_at(events),
                "question": facts.question,
                "num_agents": facts.agents.len(),
                "winner": facts.winner,
            })),
        ),
        (
            "totals",
            Piece::Whole(json!({
                "estimated_cost": total.cost_usd,
                "agent_cost": total.cost_usd,
                "subagent_cost": 0.0,
                "cost_unknown": total.cost_unknown,
                "input_tokens": total.usage.input_tokens,
                "output_tokens": total.usage.output_tokens,
                "reasoning_tokens": total.usage.reasoning_tokens,
                "cached_input_tokens": total.usage.cached_input_tokens,
                "token_source": total.usage.source(),
            })),
        ),
        ("agents", Piece::Object(Box::new(agents))),
        ("tools", Piece::Whole(tool_runs::tools_summary(&runs))),
        ("rounds", rounds::rounds_summary(&rounds)),
        (
            "api_timing",
            Piece::Whole(rounds::api_timing(&rounds, &facts.backends)),
        ),
        (
            "subagents",
            Piece::Whole(
                json!({"total_subagents": 0, "total_estimated_cost": 0.0, "subagents": []}),
            ),
        ),
    ]);
    write_document(out, summary)
}

/// One agent's entry: MassGen's `token_usage` (with its cost), `round_history` and
/// `tool_metrics`, and massgen's counts of its answers, votes and rounds.
fn agent_json(id: &AgentId, figures: &AgentFigures, rounds: &[Round], runs: &[ToolRun]) -> Value {
    let mut token_usage = json!(figures.spend.usage);
    token_usage["estimated_cost"] = json!(figures.spend.cost_usd);
    json!({
        "token_usage": token_usage,
        "round_history": rounds
            .iter()
            .filter(|round| round.agent == *id)
            .map(Round::to_json)
            .collect::<Vec<_>>(),
        "tool_metrics": tool_runs::tools_summary(runs.iter().filter(|run| run.agent == *id)),
        "estimated_cost": figures.spend.cost_usd,
        "cost_unknown": figures.spend.cost_unknown,
        "answers": figures.answers,
        "votes": figures.votes,
        "rounds": figures.rounds,
    })
}

/// Writes `metrics_events.json`: every tool call and every round, one by one, each
/// built as it is written.
pub fn write_metrics_events(events: &[Event], out: &mut dyn Write) -> io::Result<()> {
    let facts = turn_facts(events);
    let runs = tool_runs::tool_runs(events);
    let rounds = rounds::rounds(events);
    let document = Piece::object(vec![
        (
            "meta",
            Piece::Whole(json!({
                "generated_at": generated_at(events),
                "question": facts.question,
            })),
        ),
        (
            "tool_executions",
            Piece::array(runs.iter().map(ToolRun::to_json)),
        ),
        (
            "round_completions",
            Piece::array(rounds.iter().map(Round::to_json)),
        ),
    ]);
    write_document(out, document)
}
