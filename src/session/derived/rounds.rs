//! The turn's rounds one by one (MassGen's `RoundTokenUsage`: each agent's `round_history`
//! and `rounds` in `metrics_summary.json`, `round_completions` in `metrics_events.json`) and
//! its model calls' timing (`api_timing`).
//!
//! A round runs from an agent's `RoundStarted` (or the winner's `FinalPresentationStarted`)
//! to the event that settles it. Its usage is what the agent's calls reported meanwhile; a
//! call cut by a restart reports its estimate a moment later, so it may land in the next
//! round of the same agent.

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::coordination::unix;
use super::pretty::Piece;
use crate::protocol::{AgentId, CallTiming, Event, EventMsg, Spend};

pub(super) struct Round {
    pub agent: AgentId,
    number: u32,
    kind: &'static str,
    outcome: Option<&'static str>,
    spend: Spend,
    calls: Vec<CallTiming>,
    tool_calls: u32,
    start: Timestamp,
    end: Option<Timestamp>,
}

impl Round {
    fn new(agent: &AgentId, number: u32, kind: &'static str, start: Timestamp) -> Self {
        Self {
            agent: agent.clone(),
            number,
            kind,
            outcome: None,
            spend: Spend::default(),
            calls: Vec::new(),
            tool_calls: 0,
            start,
            end: None,
        }
    }

    fn settle(&mut self, outcome: &'static str, at: Timestamp) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.end = Some(at);
        }
    }

    /// The round as MassGen writes a `RoundTokenUsage`: times in seconds since the epoch,
    /// its duration in milliseconds. massgen knows no context window sizes, so the context
    /// usage is 0 as in MassGen when it has none. `cost_unknown` is massgen's own.
    pub fn to_json(&self) -> Value {
        let api_time_ms: u64 = self.calls.iter().map(|call| call.duration_ms).sum();
        let start = unix(self.start);
        let end = self.end.map_or(0.0, unix);
        let duration_ms = self.end.map_or(0.0, |end| {
            end.duration_since(self.start).as_secs_f64().max(0.0) * 1000.0
        });
        json!({
            "round_number": self.number,
            "agent_id": self.agent,
            "round_type": self.kind,
            "outcome": self.outcome.unwrap_or("incomplete"),
            "input_tokens": self.spend.usage.input_tokens,
            "output_tokens": self.spend.usage.output_tokens,
            "reasoning_tokens": self.spend.usage.reasoning_tokens,
            "cached_input_tokens": self.spend.usage.cached_input_tokens,
            "estimated_cost": self.spend.cost_usd,
            "cost_unknown": self.spend.cost_unknown,
            "context_window_size": 0,
            "context_usage_pct": 0.0,
            "tool_calls_count": self.tool_calls,
            "token_source": self.spend.usage.source(),
            "start_time": start,
            "end_time": end,
            "duration_ms": (duration_ms * 100.0).round() / 100.0,
            "api_calls_count": self.calls.len(),
            "api_time_ms": api_time_ms,
            "avg_ttft_ms": average_ttft(&self.calls).unwrap_or(0),
        })
    }
}

/// Every round of the turn in the order they started.
pub(super) fn rounds(events: &[Event]) -> Vec<Round> {
    let mut rounds: Vec<Round> = Vec::new();
    let mut open: BTreeMap<AgentId, usize> = BTreeMap::new();
    for event in events {
        let Some(agent) = event.agent.as_ref() else {
            if let Some(outcome) = ends_every_round(&event.msg) {
                for index in open.values() {
                    rounds[*index].settle(outcome, event.at);
                }
            }
            continue;
        };
        if let Some((number, kind)) = starts_a_round(&event.msg) {
            if let Some(index) = open.get(agent) {
                rounds[*index].settle("restarted", event.at);
            }
            open.insert(agent.clone(), rounds.len());
            rounds.push(Round::new(agent, number, kind, event.at));
            continue;
        }
        let Some(round) = open.get(agent).map(|index| &mut rounds[*index]) else {
            continue;
        };
        if let EventMsg::Usage {
            usage,
            cost_usd,
            timing,
        } = &event.msg
        {
            round.spend.add(*usage, *cost_usd);
            round.calls.extend(timing.iter().copied());
        } else if matches!(event.msg, EventMsg::ToolCallEnd { .. }) {
            round.tool_calls += 1;
        } else if let Some(outcome) = settles_a_round(&event.msg) {
            round.settle(outcome, event.at);
        }
    }
    rounds
}

/// A round's number and type, when `msg` starts one.
fn starts_a_round(msg: &EventMsg) -> Option<(u32, &'static str)> {
    if let EventMsg::RoundStarted {
        round,
        answers_seen,
        ..
    } = msg
    {
        let kind = if answers_seen.is_empty() {
            "initial_answer"
        } else {
            "voting"
        };
        Some((*round, kind))
    } else if matches!(msg, EventMsg::FinalPresentationStarted { .. }) {
        Some((0, "presentation"))
    } else if matches!(msg, EventMsg::PostEvaluationStarted { .. }) {
        Some((0, "post_evaluation"))
    } else {
        None
    }
}

/// How an agent's event ends its open round, if it does.
fn settles_a_round(msg: &EventMsg) -> Option<&'static str> {
    if matches!(msg, EventMsg::AnswerSubmitted { .. }) {
        Some("answer")
    } else if matches!(msg, EventMsg::VoteCast { .. }) {
        Some("vote")
    } else if matches!(msg, EventMsg::AgentRestarted { .. }) {
        Some("restarted")
    } else if matches!(
        msg,
        EventMsg::AgentError { .. } | EventMsg::AgentKilled { .. }
    ) {
        Some("error")
    } else if matches!(msg, EventMsg::FinalPresentationDone { .. }) {
        Some("presentation")
    } else if matches!(msg, EventMsg::PostEvaluationFinished { .. }) {
        Some("post_evaluation")
    } else {
        None
    }
}

/// How a turn-wide event ends every open round, if it does.
fn ends_every_round(msg: &EventMsg) -> Option<&'static str> {
    if matches!(msg, EventMsg::Timeout { .. }) {
        Some("timeout")
    } else if matches!(msg, EventMsg::Cancelled | EventMsg::AnswerNow { .. }) {
        // "Answer now" stops every running round, as a cancel does.
        Some("cancelled")
    } else {
        None
    }
}

/// The `rounds` section: each round (written as it is built), and counts by outcome.
pub fn rounds_summary(rounds: &[Round]) -> Piece<'_> {
    let mut by_outcome: BTreeMap<&str, u32> = [
        "answer",
        "vote",
        "presentation",
        "post_evaluation",
        "restarted",
        "error",
        "timeout",
    ]
    .into_iter()
    .map(|outcome| (outcome, 0))
    .collect();
    for round in rounds {
        *by_outcome
            .entry(round.outcome.unwrap_or("incomplete"))
            .or_default() += 1;
    }
    let mut total = Spend::default();
    for round in rounds {
        total += round.spend;
    }
    Piece::object(vec![
        ("total_rounds", Piece::Whole(json!(rounds.len()))),
        ("by_outcome", Piece::Whole(json!(by_outcome))),
        (
            "total_input_tokens",
            Piece::Whole(json!(total.usage.input_tokens)),
        ),
        (
            "total_output_tokens",
            Piece::Whole(json!(total.usage.output_tokens)),
        ),
        (
            "total_reasoning_tokens",
            Piece::Whole(json!(total.usage.reasoning_tokens)),
        ),
        ("total_estimated_cost", Piece::Whole(json!(total.cost_usd))),
        ("token_source", Piece::Whole(json!(total.usage.source()))),
        ("avg_context_usage_pct", Piece::Whole(json!(0.0))),
        ("by_round", Piece::array(rounds.iter().map(Round::to_json))),
    ])
}

/// The `api_timing` section: every model call's duration and time to first output, in
/// total, by round (`round_N`) and by backend (`backends` maps each agent to its backend
/// type). Each group has MassGen's figures (`calls`, `time_ms`, `ttft_ms`: summed) and
/// massgen's (`total_calls`, `total_time_ms`, averages), which MassGen's `massgen logs`
/// also reads.
pub fn api_timing(rounds: &[Round], backends: &BTreeMap<AgentId, String>) -> Value {
    let mut all = Vec::new();
    let mut by_round: BTreeMap<String, Vec<CallTiming>> = BTreeMap::new();
    let mut by_backend: BTreeMap<&str, Vec<CallTiming>> = BTreeMap::new();
    for round in rounds {
        all.extend(round.calls.iter().copied());
        by_round
            .entry(format!("round_{}", round.number))
            .or_default()
            .extend(round.calls.iter().copied());
        let backend = backends.get(&round.agent).map_or("unknown", String::as_str);
        by_backend
            .entry(backend)
            .or_default()
            .extend(round.calls.iter().copied());
    }
    let mut summary = timing_figures(&all);
    summary["by_round"] = groups(by_round.iter().filter(|(_, calls)| !calls.is_empty()));
    summary["by_backend"] = groups(by_backend.iter());
    summary
}

fn groups<'a, K: ToString + 'a>(
    groups: impl Iterator<Item = (&'a K, &'a Vec<CallTiming>)>,
) -> Value {
    groups
        .map(|(key, calls)| (key.to_string(), timing_figures(calls)))
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

fn timing_figures(calls: &[CallTiming]) -> Value {
    let total_ms: u64 = calls.iter().map(|call| call.duration_ms).sum();
    let ttft_ms: u64 = calls.iter().filter_map(|call| call.ttft_ms).sum();
    json!({
        "calls": calls.len(),
        "time_ms": total_ms,
        "ttft_ms": ttft_ms,
        "total_calls": calls.len(),
        "total_time_ms": total_ms,
        "avg_time_ms": if calls.is_empty() { 0 } else { total_ms / calls.len() as u64 },
        "avg_ttft_ms": average_ttft(calls).unwrap_or(0),
    })
}

/// The mean time to first output over the calls that streamed any, or `None`.
fn average_ttft(calls: &[CallTiming]) -> Option<u64> {
    let firsts: Vec<u64> = calls.iter().filter_map(|call| call.ttft_ms).collect();
    (!firsts.is_empty()).then(|| firsts.iter().sum::<u64>() / firsts.len() as u64)
}
