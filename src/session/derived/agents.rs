//! Per-agent files of a turn: `agent_<id>/<time>/answer.txt` for every answer,
//! `agent_<id>/<time>/vote.json` for every vote (MassGen's fields), and
//! `agent_outputs/agent_<id>.txt` with everything the agent streamed.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::coordination::unix_seconds;
use crate::protocol::{AgentId, AgentInfo, Event, EventMsg};
use crate::session::pretty_json as pretty;

/// A file to write: its path under the attempt directory, and its contents.
pub type DerivedFile = (PathBuf, Vec<u8>);

/// Hands each answer and vote file to `take` as it is built, so a large team's hundreds of
/// votes are never all in memory; stops at the first failure.
pub fn answers_and_votes(
    events: &[Event],
    mut take: impl FnMut(DerivedFile) -> io::Result<()>,
) -> io::Result<()> {
    let mut roster: Vec<AgentInfo> = Vec::new();
    let mut question = String::new();
    let mut label_authors: BTreeMap<String, AgentId> = BTreeMap::new();
    let mut seen: BTreeMap<AgentId, (u32, Vec<String>)> = BTreeMap::new();
    for event in events {
        let agent = event.agent.as_ref();
        if let EventMsg::TurnStarted {
            question: asked,
            agents,
            ..
        } = &event.msg
        {
            question.clone_from(asked);
            roster.clone_from(agents);
        } else if let (
            EventMsg::RoundStarted {
                round,
                answers_seen,
                ..
            },
            Some(agent),
        ) = (&event.msg, agent)
        {
            let labels = answers_seen.iter().map(ToString::to_string).collect();
            seen.insert(agent.clone(), (*round, labels));
        } else if let (EventMsg::AnswerSubmitted { label, content, .. }, Some(agent)) =
            (&event.msg, agent)
        {
            label_authors.insert(label.to_string(), agent.clone());
            take((
                agent_dir(agent, event).join("answer.txt"),
                content.clone().into_bytes(),
            ))?;
        } else if let (
            EventMsg::VoteCast {
                target,
                target_anon,
                target_label,
                reason,
                ..
            },
            Some(agent),
        ) = (&event.msg, agent)
        {
            let (round, labels) = seen.get(agent).cloned().unwrap_or_default();
            let anon_of = |id: &AgentId| {
                roster
                    .iter()
                    .find(|info| &info.id == id)
                    .map(|info| info.anon_id.to_string())
            };
            let options: Vec<&AgentId> = labels
                .iter()
                .filter_map(|label| label_authors.get(label))
                .collect();
            let vote = json!({
                "voter_id": agent,
                "voter_anon_id": anon_of(agent),
                "voted_for": target,
                "voted_for_label": target_label,
                "voted_for_anon": target_anon,
                "reason": reason,
                "timestamp": event.at.to_string(),
                "unix_timestamp": unix_seconds(event),
                "coordination_round": round,
                "available_options": options,
                "available_options_labels": labels,
                "answer_label_to_agent": labels
                    .iter()
                    .filter_map(|label| Some((label.clone(), json!(label_authors.get(label)?))))
                    .collect::<serde_json::Map<String, Value>>(),
                "available_options_anon": options.iter().map(|id| anon_of(id)).collect::<Vec<_>>(),
                "agent_mapping": roster
                    .iter()
                    .map(|info| (info.anon_id.to_string(), json!(info.id)))
                    .collect::<serde_json::Map<String, Value>>(),
                "vote_context": {
                    "total_agents": roster.len(),
                    "agents_with_answers": options.len(),
                    "current_task": question,
                },
            });
            take((agent_dir(agent, event).join("vote.json"), pretty(&vote)))?;
        }
    }
    Ok(())
}

/// `agent_outputs/agent_<id>.txt` (streamed text, answers and votes, in order) and
/// `agent_outputs/final_presentation_<id>.txt`, built in memory: the end-of-turn pass
/// streams the same bytes to disk instead (`stream.rs`).
#[cfg(test)]
pub fn outputs(events: &[Event]) -> Vec<DerivedFile> {
    let mut streamed: BTreeMap<AgentId, String> = BTreeMap::new();
    let mut files = Vec::new();
    for event in events {
        let Some(agent) = event.agent.as_ref() else {
            continue;
        };
        let text = streamed.entry(agent.clone()).or_default();
        if let Some(piece) = output_piece(&event.msg) {
            text.push_str(&piece);
        } else if let EventMsg::FinalPresentationDone { content, .. } = &event.msg {
            files.push((final_presentation_path(agent), content.clone().into_bytes()));
        }
    }
    for (agent, text) in streamed {
        files.push((
            output_path(agent),
            text.trim_start().to_string().into_bytes(),
        ));
    }
    files
}

/// What `msg` adds to its agent's `agent_outputs/agent_<id>.txt` (whose leading white
/// space is left out).
pub(super) fn output_piece(msg: &EventMsg) -> Option<Cow<'_, str>> {
    match msg {
        EventMsg::TextDelta { text } => Some(Cow::Borrowed(text)),
        EventMsg::RoundStarted { round, .. } => Some(format!("\n--- round {round} ---\n").into()),
        EventMsg::AnswerSubmitted { label, content, .. } => {
            Some(format!("\n[answer {label}]\n{content}\n").into())
        }
        EventMsg::VoteCast { target, reason, .. } => {
            Some(format!("\n[vote for {target}] {reason}\n").into())
        }
        _ => None,
    }
}

pub(super) fn output_path(agent: impl std::fmt::Display) -> PathBuf {
    PathBuf::from("agent_outputs").join(format!("agent_{agent}.txt"))
}

pub(super) fn final_presentation_path(agent: impl std::fmt::Display) -> PathBuf {
    PathBuf::from("agent_outputs").join(format!("final_presentation_{agent}.txt"))
}

fn agent_dir(agent: &AgentId, event: &Event) -> PathBuf {
    let stamp = event.at.strftime("%Y%m%d_%H%M%S_%6f").to_string();
    PathBuf::from(format!("agent_{agent}")).join(format!("{stamp}_{}", event.seq))
}
