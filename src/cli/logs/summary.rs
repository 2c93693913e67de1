//! `massgen logs summary`: one run's question, winner, outcome, duration, tokens, cost and
//! votes (cast, reset, received) per agent, rounds, errors, top tools and API timing —
//! from its `events.jsonl` and `metrics_summary.json`.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use serde_json::{Value, json};

use super::{cost, duration, json_text};
use crate::protocol::{AgentId, Event, EventMsg, TurnOutcome};
use crate::sanitize::sanitize_for_terminal as clean;
use crate::session::{EventLines, METRICS_MAX, VoteCounts, VoteLedger, path_json, read_json};

/// `1 agent`, `4 agents`, from a count read in a JSON file.
fn count(n: u64, noun: &str) -> String {
    crate::text::plural(usize::try_from(n).unwrap_or(usize::MAX), noun)
}

/// What a turn's events say about how it went.
#[derive(Debug, Default)]
pub struct TurnFacts {
    pub question: Option<String>,
    pub winner: Option<String>,
    pub outcome: Option<TurnOutcome>,
    pub duration_ms: Option<u64>,
    /// (agent, message) of every error and every agent dropped from the turn.
    pub errors: Vec<(String, String)>,
    /// Every vote and what became of it, and the tally that chose the winner.
    pub votes: VoteLedger,
}

/// The event types the facts come from; other lines (most of a log) are not parsed.
const WANTED: [&str; 8] = [
    "\"type\":\"turn_started\"",
    "\"type\":\"turn_finished\"",
    "\"type\":\"winner_selected\"",
    "\"type\":\"agent_error\"",
    "\"type\":\"agent_killed\"",
    "\"type\":\"answer_submitted\"",
    "\"type\":\"vote_cast\"",
    "\"type\":\"orchestration_restarted\"",
];

/// Reads `events.jsonl` in `attempt`, line by line (a log can be hundreds of MB); none
/// when there is no log. A log that is not a regular file, or has a line longer than any
/// event, is an error naming it.
pub fn turn_facts(attempt: &Path) -> Result<TurnFacts, String> {
    let mut facts = TurnFacts::default();
    let path = attempt.join("events.jsonl");
    let mut lines = match EventLines::open(&path) {
        Ok(lines) => lines,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(facts),
        Err(error) => return Err(refused(&error)),
    };
    while let Some(line) = lines.next_line().map_err(|error| refused(&error))? {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        if !WANTED.iter().any(|wanted| line.contains(wanted)) {
            continue;
        }
        let Ok(event) = serde_json::from_str::<Event>(line) else {
            continue;
        };
        facts.votes.fold(event.agent.as_ref(), &event.msg);
        let agent = event.agent.as_ref().map(ToString::to_string);
        if let EventMsg::TurnStarted { question, .. } = event.msg {
            facts.question = Some(question);
        } else if let EventMsg::WinnerSelected { winner, .. } = event.msg {
            facts.winner = Some(winner.to_string());
        } else if let EventMsg::TurnFinished {
            outcome,
            duration_ms,
            winner,
        } = event.msg
        {
            facts.outcome = Some(outcome);
            facts.duration_ms = Some(duration_ms);
            if let Some(winner) = winner {
                facts.winner = Some(winner.to_string());
            }
        } else if let EventMsg::AgentError { message } = event.msg {
            facts.errors.push((agent.unwrap_or_default(), message));
        } else if let EventMsg::AgentKilled { reason } = event.msg {
            facts
                .errors
                .push((agent.unwrap_or_default(), format!("dropped: {reason}")));
        }
    }
    Ok(facts)
}

/// Per agent (those of `metrics` and any other that voted or was voted for), its votes
/// cast, how many of them a newer answer reset, and how many it received in the tally that
/// chose the winner (`null` when none was chosen).
fn vote_counts_json(ledger: &VoteLedger, metrics: &Value) -> Value {
    let mut agents: Vec<AgentId> = metrics["agents"]
        .as_object()
        .map(|agents| agents.keys().map(AgentId::new).collect())
        .unwrap_or_default();
    let named = ledger
        .votes()
        .iter()
        .flat_map(|vote| [&vote.voter, &vote.target])
        .chain(
            ledger
                .tally()
                .into_iter()
                .flatten()
                .map(|count| &count.agent),
        );
    for agent in named {
        if !agents.contains(agent) {
            agents.push(agent.clone());
        }
    }
    let counts = agents.iter().map(|agent| {
        let VoteCounts {
            cast,
            reset,
            received,
        } = ledger.counts(agent);
        (
            agent.to_string(),
            json!({"cast": cast, "reset": reset, "received": received}),
        )
    });
    Value::Object(counts.collect())
}

/// `cast 4 votes (1 reset) · received 3`: what an agent voted, and what it was voted.
fn votes_text(counts: &Value) -> String {
    let number = |key: &str| counts[key].as_u64().unwrap_or(0);
    let mut text = format!("cast {}", count(number("cast"), "vote"));
    if number("reset") > 0 {
        let _ = write!(text, " ({} reset)", number("reset"));
    }
    if let Some(received) = counts["received"].as_u64() {
        let _ = write!(text, " · received {received}");
    }
    text
}

/// A log file massgen will not read, and what to do about it.
fn refused(error: &io::Error) -> String {
    format!("{error}\n  help: remove that file, or pass another run with --log-dir")
}

pub fn outcome_name(outcome: Option<TurnOutcome>) -> &'static str {
    match outcome {
        Some(TurnOutcome::Completed) => "completed",
        Some(TurnOutcome::TimedOut) => "timed out",
        Some(TurnOutcome::Cancelled) => "cancelled",
        Some(TurnOutcome::Failed) => "failed",
        None => "unfinished",
    }
}

/// `metrics_summary.json` of `attempt`, or `Null` when there is none (a killed run); an
/// error when it is not a regular file or is larger than any such summary.
pub fn metrics(attempt: &Path) -> Result<Value, String> {
    read_json(&attempt.join("metrics_summary.json"), METRICS_MAX)
        .map(Option::unwrap_or_default)
        .map_err(|error| refused(&error))
}

/// The total cost, `None` when some model's price is unknown.
pub fn total_cost(metrics: &Value) -> Option<f64> {
    let totals = &metrics["totals"];
    if totals["cost_unknown"].as_bool().unwrap_or(false) {
        return None;
    }
    totals["estimated_cost"].as_f64()
}

/// The summary as JSON: MassGen's `metrics_summary.json` with what the events add.
pub fn summary_json(attempt: &Path) -> Result<Value, String> {
    let facts = turn_facts(attempt)?;
    let metrics = metrics(attempt)?;
    let errors: Vec<Value> = facts
        .errors
        .iter()
        .map(|(agent, message)| json!({"agent": agent, "message": message}))
        .collect();
    let votes = vote_counts_json(&facts.votes, &metrics);
    Ok(json!({
        "log_dir": path_json(attempt),
        "question": facts.question.clone().or_else(|| metrics["meta"]["question"].as_str().map(str::to_string)),
        "winner": facts.winner.clone().or_else(|| metrics["meta"]["winner"].as_str().map(str::to_string)),
        "outcome": outcome_name(facts.outcome),
        "duration_ms": facts.duration_ms,
        "estimated_cost": total_cost(&metrics),
        "cost_unknown": total_cost(&metrics).is_none(),
        "errors": errors,
        "votes": votes,
        "metrics": metrics,
    }))
}

pub fn run(attempt: &Path, as_json: bool) -> Result<String, String> {
    let mut out = String::new();
    let summary = summary_json(attempt)?;
    if as_json {
        return json_text(&summary);
    }
    let text = |value: &Value| clean(value.as_str().unwrap_or("-")).replace('\n', " ");
    let metrics = &summary["metrics"];
    let totals = &metrics["totals"];
    let number = |value: &Value| value.as_u64().unwrap_or(0);
    let _ = writeln!(out, "Question: {}", text(&summary["question"]));
    let _ = writeln!(
        out,
        "Winner:   {} · {} · {} · {} · {}",
        text(&summary["winner"]),
        text(&summary["outcome"]),
        count(number(&metrics["meta"]["num_agents"]), "agent"),
        summary["duration_ms"]
            .as_u64()
            .map_or("-".to_string(), duration),
        cost(summary["estimated_cost"].as_f64())
    );
    let _ = writeln!(
        out,
        "Tokens:   input {} · output {} · reasoning {}",
        number(&totals["input_tokens"]),
        number(&totals["output_tokens"]),
        number(&totals["reasoning_tokens"])
    );
    if let Some(agents) = metrics["agents"].as_object() {
        let _ = writeln!(out, "Agents:");
        for (id, agent) in agents {
            let usage = &agent["token_usage"];
            let agent_cost = if agent["cost_unknown"].as_bool().unwrap_or(false) {
                None
            } else {
                agent["estimated_cost"].as_f64()
            };
            let _ = writeln!(
                out,
                "  {id:<16} in {:>8} · out {:>7} · {} · {} · {}",
                number(&usage["input_tokens"]),
                number(&usage["output_tokens"]),
                count(number(&agent["answers"]), "answer"),
                votes_text(&summary["votes"][id.as_str()]),
                cost(agent_cost)
            );
        }
    }
    if let Some(by_outcome) = metrics["rounds"]["by_outcome"].as_object() {
        let parts: Vec<String> = by_outcome
            .iter()
            .map(|(outcome, count)| format!("{outcome} {}", number(count)))
            .collect();
        let _ = writeln!(out, "Rounds:   {}", parts.join(" · "));
    }
    let timing = &metrics["api_timing"];
    if number(&timing["total_calls"]) > 0 {
        let _ = writeln!(
            out,
            "API:      {} · {} in all · {} on average · first token after {}",
            count(number(&timing["total_calls"]), "call"),
            duration(number(&timing["total_time_ms"])),
            duration(number(&timing["avg_time_ms"])),
            duration(number(&timing["avg_ttft_ms"]))
        );
    }
    let errors = summary["errors"].as_array().cloned().unwrap_or_default();
    if !errors.is_empty() {
        let _ = writeln!(out, "Errors:");
        for error in &errors {
            let _ = writeln!(
                out,
                "  [{}] {}",
                text(&error["agent"]),
                text(&error["message"])
            );
        }
    }
    let _ = writeln!(out, "Log:      {}", attempt.display());
    Ok(out)
}
