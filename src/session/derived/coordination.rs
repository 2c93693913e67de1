//! `coordination_events.json` as MassGen's `CoordinationTracker` writes it: the session's
//! metadata and one entry per coordination event, each with a unix timestamp, its MassGen
//! event type, the agent, a one-line `details` text and a `context` holding what MassGen's
//! readers look up there (the agent's round, answer labels, votes, the winner's answers).
//! MassGen's own coordination-table builder reads the file; one written by massgen must
//! read the same there. Each context also names the turn and the `events.jsonl` seq.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use serde_json::{Value, json};

use super::pretty::write_indented;
use crate::protocol::{AgentStatus, AnswerLabel, Event};

/// Writes the file to `out`, each entry as soon as no later event can change it: a large
/// team's turn makes thousands, each listing the answers its agent saw, several times the
/// file's size were they all held as JSON values. The bytes are `serde_json`'s pretty
/// form of `{"events": [...], "session_metadata": {...}}`, as before.
pub fn write_coordination_events(events: &[Event], out: &mut dyn Write) -> io::Result<()> {
    let mut tracker = Tracker::default();
    let mut written = 0;
    out.write_all(b"{\n  \"events\": [")?;
    for event in events {
        tracker.fold(event);
        // The last entry stays: a restart that follows adds its agent to it.
        let settled = tracker.entries.len().saturating_sub(1);
        for entry in tracker.entries.drain(..settled) {
            write_entry(out, &entry, written)?;
            written += 1;
        }
    }
    for entry in std::mem::take(&mut tracker.entries) {
        write_entry(out, &entry, written)?;
        written += 1;
    }
    out.write_all(if written == 0 { b"]" } else { b"\n  ]" })?;
    let metadata = json!({
        "user_prompt": tracker.question,
        "agent_ids": tracker.agent_ids,
        "start_time": events.first().map(unix_seconds),
        "end_time": events.last().map(unix_seconds),
        "final_winner": tracker.winner,
    });
    out.write_all(b",\n  \"session_metadata\": ")?;
    write_indented(out, &metadata, "  ")?;
    out.write_all(b"\n}\n")
}

/// The `index`-th entry of the `events` array, at its depth in the pretty file.
fn write_entry(out: &mut dyn Write, entry: &Value, index: usize) -> io::Result<()> {
    out.write_all(if index == 0 { b"\n    " } else { b",\n    " })?;
    write_indented(out, entry, "    ")
}

pub fn unix_seconds(event: &Event) -> f64 {
    unix(event.at)
}

/// Seconds since the Unix epoch, as MassGen's files write times.
pub fn unix(at: jiff::Timestamp) -> f64 {
    at.as_millisecond() as f64 / 1000.0
}

/// What MassGen's tracker knows while it records a turn.
#[derive(Default)]
pub(super) struct Tracker {
    pub question: String,
    pub agent_ids: Vec<String>,
    pub winner: Option<String>,
    /// Each agent's round as MassGen counts it: 0 at first, one more per completed
    /// restart; the winner's presentation is the round after the highest.
    rounds: BTreeMap<String, u32>,
    /// The last status written for each agent, so a status is written once per change.
    statuses: BTreeMap<String, &'static str>,
    /// Decomposition mode: agents whose `stop` stands; their `voted` status is MassGen's
    /// `stopped`. A new answer wakes them all.
    pub stopped: BTreeSet<String>,
    /// Each agent's latest answer: its label and text.
    pub latest: BTreeMap<String, (String, String)>,
    /// Who gave the latest answer: the agent whose answer restarts the others.
    pub last_author: Option<String>,
    /// What MassGen records when the winner is chosen, repeated with the final answer.
    pub final_context: Option<Value>,
    pub entries: Vec<Value>,
}

impl Tracker {
    /// The highest round any agent is in (MassGen's `max_round`).
    pub fn max_round(&self) -> u32 {
        self.rounds.values().copied().max().unwrap_or(0)
    }

    pub fn set_round(&mut self, agent: &str, round: u32) {
        self.rounds.insert(agent.to_string(), round);
    }

    /// Records one entry. MassGen adds the iteration and the round (the agent's, or the
    /// highest for events of no agent) to every context.
    pub fn push(
        &mut self,
        event: &Event,
        event_type: &str,
        agent: Option<&str>,
        details: String,
        mut context: Value,
    ) {
        let round = agent
            .and_then(|agent| self.rounds.get(agent).copied())
            .unwrap_or_else(|| self.max_round());
        context["iteration"] = json!(self.max_round());
        context["round"] = json!(round);
        context["turn"] = json!(event.turn);
        context["seq"] = json!(event.seq);
        self.entries.push(json!({
            "timestamp": unix_seconds(event),
            "event_type": event_type,
            "agent_id": agent,
            "details": details,
            "context": context,
        }));
    }

    /// MassGen writes one `restart_triggered` per new answer, by the agent that gave it,
    /// naming every agent it restarts; massgen's events name each restarted agent, so they
    /// are gathered into the entry of the answer that caused them.
    pub fn restart(&mut self, event: &Event, agent: Option<&str>, reason: &str) {
        let Some(agent) = agent else { return };
        let trigger = self
            .last_author
            .clone()
            .unwrap_or_else(|| agent.to_string());
        if let Some(last) = self.entries.last_mut()
            && last["event_type"] == "restart_triggered"
            && last["context"]["triggering_agent"] == trigger.as_str()
            && let Some(affected) = last["context"]["affected_agents"].as_array_mut()
        {
            affected.push(json!(agent));
            let count = affected.len();
            last["details"] = json!(format!("Triggered restart affecting {count} agents"));
            return;
        }
        let context = json!({
            "affected_agents": [agent],
            "triggering_agent": trigger,
            "reason": reason,
        });
        let details = "Triggered restart affecting 1 agents".to_string();
        self.push(event, "restart_triggered", Some(&trigger), details, context);
    }

    /// A `status_change` when the agent's status, in MassGen's words, changed.
    pub fn status(&mut self, event: &Event, agent: &str, status: AgentStatus) {
        let Some(word) = massgen_status(status) else {
            return;
        };
        let word = if status == AgentStatus::Voted && self.stopped.contains(agent) {
            "stopped"
        } else {
            word
        };
        if self.statuses.insert(agent.to_string(), word) == Some(word) {
            return;
        }
        self.push(
            event,
            "status_change",
            Some(agent),
            format!("Changed to status: {word}"),
            json!({}),
        );
    }
}

/// MassGen's `AgentStatus` value for ours; `None` where MassGen records no status (an
/// agent waiting for its turn, or cancelled with the turn, which `agent_cancelled` says).
fn massgen_status(status: AgentStatus) -> Option<&'static str> {
    match status {
        AgentStatus::Thinking
        | AgentStatus::Streaming
        | AgentStatus::Tool
        | AgentStatus::Presenting => Some("streaming"),
        AgentStatus::Answered => Some("answered"),
        AgentStatus::Voted => Some("voted"),
        AgentStatus::Restarting => Some("restarting"),
        AgentStatus::Done => Some("completed"),
        AgentStatus::Error => Some("error"),
        AgentStatus::TimedOut => Some("timeout"),
        AgentStatus::Waiting | AgentStatus::Cancelled => None,
    }
}

/// The anonymous id an answer label belongs to: `agent2` for `agent2.1`.
pub(super) fn anon_of(label: &AnswerLabel) -> &str {
    label.as_str().split('.').next().unwrap_or_default()
}
