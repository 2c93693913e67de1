//! Golden files of a scripted demo turn: every derived file (coordination events, the
//! coordination table, status, metrics, answers, votes, outputs), with times made stable.

use insta::assert_snapshot;
use serde_json::Value;

use super::*;
use crate::tui::test_support::demo_turns;

/// Times differ per run; everything else is stable.
fn stable(mut value: Value) -> Value {
    const TIMES: [&str; 9] = [
        "timestamp",
        "unix_timestamp",
        "start_time",
        "end_time",
        "generated_at",
        "duration_ms",
        "last_updated",
        "last_activity",
        "elapsed_seconds",
    ];
    match &mut value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                *inner = if TIMES.contains(&key.as_str()) && !inner.is_null() {
                    Value::String("<time>".into())
                } else {
                    stable(inner.take())
                };
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = stable(item.take());
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
    value
}

fn stable_path(path: &std::path::Path) -> String {
    path.components()
        .map(|part| {
            let part = part.as_os_str().to_string_lossy();
            // `<YYYYMMDD_HHMMSS_ffffff>_<seq>`
            if part.len() > 22
                && part.as_bytes()[8] == b'_'
                && part[..8].bytes().all(|b| b.is_ascii_digit())
            {
                let seq = part.rsplit('_').next().unwrap_or_default();
                format!("<time>_{seq}")
            } else {
                part.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test(start_paused = true)]
async fn a_demo_turn_derives_massgen_shaped_files() {
    let events = demo_turns(&["What is the capital of France?"]).await;
    let turn: Vec<_> = events.into_iter().filter(|event| event.turn == 1).collect();
    let files = derive(&turn);
    let listing: Vec<String> = files.iter().map(|(path, _)| stable_path(path)).collect();
    assert_snapshot!("derived_files", listing.join("\n"));
    for (path, contents) in &files {
        let name = stable_path(path);
        let text = String::from_utf8(contents.clone()).unwrap();
        let shown = if name.ends_with(".json") {
            serde_json::to_string_pretty(&stable(serde_json::from_str(&text).unwrap())).unwrap()
        } else {
            text
        };
        let key = name.replace(['/', '.', '<', '>'], "_");
        assert_snapshot!(key, shown);
    }
}

#[tokio::test(start_paused = true)]
async fn written_files_land_beside_the_event_log() {
    let dir = tempfile::tempdir().unwrap();
    let events = demo_turns(&["q"]).await;
    let mut log = crate::session::TurnLog::open(dir.path().to_path_buf()).unwrap();
    for event in events.iter().filter(|event| event.turn == 1) {
        log.append(event).unwrap();
    }
    drop(log);
    let (_, written) = write_derived(dir.path());
    assert!(written.unwrap() > 5);
    let coordination: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("coordination_events.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(coordination["session_metadata"]["user_prompt"], "q");
    assert!(dir.path().join("metrics_summary.json").is_file());
    assert!(dir.path().join("agent_outputs/agent_scout.txt").is_file());
}

/// The end-of-turn pass (one streaming read, streamed text folded away) writes exactly the
/// bytes the in-memory builders make from every event, times included; gives back the
/// events it kept.
fn assert_streamed_as_built(events: &[Event]) -> Vec<Event> {
    let dir = tempfile::tempdir().unwrap();
    let mut log = crate::session::TurnLog::open(dir.path().to_path_buf()).unwrap();
    for event in events {
        log.append(event).unwrap();
    }
    drop(log);
    let logged = crate::session::read_events(&dir.path().join("events.jsonl")).unwrap();
    let expected = derive(&logged);
    let (compacted, written) = write_derived(dir.path());
    assert_eq!(written.unwrap(), expected.len());
    assert!(
        compacted.len() < logged.len(),
        "streamed text is folded away"
    );
    for (path, contents) in expected {
        let on_disk = std::fs::read(dir.path().join(&path)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&on_disk),
            String::from_utf8_lossy(&contents),
            "{}",
            path.display()
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("agent_outputs"))
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    compacted
}

#[tokio::test(start_paused = true)]
async fn the_streaming_pass_writes_what_the_builders_make_of_a_demo_turn() {
    let events = demo_turns(&["What is the capital of France?"]).await;
    let turn: Vec<_> = events.into_iter().filter(|event| event.turn == 1).collect();
    assert_streamed_as_built(&turn);
}

/// The first turn of a demo run, its agents, and the sequence number and time of its last
/// event, for tests that append streams to it.
async fn demo_turn_to_extend() -> (
    Vec<Event>,
    Vec<crate::protocol::AgentId>,
    u64,
    jiff::Timestamp,
) {
    let events = demo_turns(&["q"]).await;
    let turn: Vec<Event> = events.into_iter().filter(|event| event.turn == 1).collect();
    let mut agents: Vec<_> = turn
        .iter()
        .filter_map(|event| event.agent.clone())
        .collect();
    agents.sort();
    agents.dedup();
    let seq = turn.last().map_or(0, |event| event.seq);
    let at = turn
        .last()
        .map_or(jiff::Timestamp::UNIX_EPOCH, |event| event.at);
    (turn, agents, seq, at)
}

#[tokio::test(start_paused = true)]
async fn the_streaming_pass_keeps_interleaved_agents_apart() {
    use crate::protocol::EventMsg;
    // Deltas of every agent interleaved, white space first, ending the log.
    let (mut turn, agents, mut seq, mut at) = demo_turn_to_extend().await;
    assert!(agents.len() >= 3);
    for round in 0..50 {
        for (index, agent) in agents.iter().enumerate().take(3) {
            seq += 1;
            at += jiff::SignedDuration::from_millis(7);
            let text = if round == 0 {
                " \n ".to_string()
            } else {
                format!("{index}w{round} ")
            };
            let msg = match round % 3 {
                0 => EventMsg::TextDelta { text },
                1 => EventMsg::ReasoningDelta { text },
                _ => EventMsg::FinalPresentationDelta { text },
            };
            turn.push(Event {
                seq,
                at,
                turn: 1,
                agent: Some(agent.clone()),
                msg,
            });
        }
    }
    assert_streamed_as_built(&turn);
}

/// A large team streams in short runs, each agent's deltas between other news: the pass
/// keeps a delta only while it is its agent's latest event, at most one per agent, and
/// the files are still what the builders make of every event.
#[tokio::test(start_paused = true)]
async fn the_streaming_pass_keeps_one_delta_per_agent_of_interleaved_streams() {
    use crate::protocol::{AgentId, EventMsg};
    let (mut turn, agents, mut seq, mut at) = demo_turn_to_extend().await;
    let mut next = |agent: Option<&AgentId>, msg: EventMsg| {
        seq += 1;
        at += jiff::SignedDuration::from_millis(7);
        Event {
            seq,
            at,
            turn: 1,
            agent: agent.cloned(),
            msg,
        }
    };
    for round in 0..50 {
        for agent in &agents {
            let text = format!("{agent} {round} ");
            turn.push(next(Some(agent), EventMsg::TextDelta { text }));
            let message = format!("news {round}");
            turn.push(next(None, EventMsg::Warning { message }));
        }
    }
    let compacted = assert_streamed_as_built(&turn);
    let deltas = compacted
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::TextDelta { .. }))
        .count();
    assert!(deltas <= agents.len(), "{deltas} deltas kept");
}

#[test]
fn execution_metadata_of_the_demo_config() {
    let demo = crate::config::examples::demo().unwrap();
    let config = crate::config::from_text(demo.text, "demo", &crate::config::Env::default())
        .unwrap()
        .into_runnable()
        .unwrap()
        .0;
    let metadata = execution_metadata(
        &config,
        "What is the capital of France?",
        1,
        Some("session_20250101_000000"),
        Some(std::path::Path::new("/project")),
    );
    let mut shown = stable(metadata);
    shown["massgen_version"] = Value::String("<version>".into());
    assert_snapshot!(
        "execution_metadata_yaml",
        serde_json::to_string_pretty(&shown).unwrap()
    );
}

/// `coordination_events.json`, written an entry at a time, is byte for byte what
/// `serde_json` makes of its whole value: with entries, with one, and with none.
#[tokio::test(start_paused = true)]
async fn coordination_events_stream_in_the_pretty_form_of_the_whole() {
    let events = demo_turns(&["What is the capital of France?"]).await;
    let turn: Vec<_> = events.into_iter().filter(|event| event.turn == 1).collect();
    for events in [&turn[..], &turn[..1], &[]] {
        let mut streamed = Vec::new();
        super::write_coordination_events(events, &mut streamed).unwrap();
        let whole: Value = serde_json::from_slice(&streamed).unwrap();
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            String::from_utf8(crate::session::pretty_json(&whole)).unwrap()
        );
    }
}

/// Decomposition mode's `stop` is MassGen's `agent_stopped` entry: its status and summary
/// (the details cut at 100 characters, the context whole); its status is `stopped`.
#[test]
fn a_stop_is_an_agent_stopped_entry() {
    use crate::protocol::EventMsg;
    use crate::tui::test_support::event;
    let summary = "x".repeat(120);
    let stop = EventMsg::AgentStopped {
        summary: summary.clone(),
        status: "blocked".into(),
    };
    let voted = EventMsg::AgentStatus {
        status: crate::protocol::AgentStatus::Voted,
    };
    let events = [event(1, Some("a"), stop), event(2, Some("a"), voted)];
    let mut written = Vec::new();
    super::write_coordination_events(&events, &mut written).unwrap();
    let whole: Value = serde_json::from_slice(&written).unwrap();
    let entry = whole["events"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|entry| entry["event_type"] == "agent_stopped")
        .unwrap_or_else(|| panic!("{whole:#}"));
    assert_eq!(entry["agent_id"], "a");
    assert_eq!(
        entry["details"],
        format!("Stopped (blocked): {}", "x".repeat(100))
    );
    assert_eq!(entry["context"]["summary"], summary.as_str());
    assert_eq!(entry["context"]["status"], "blocked");
    let status = whole["events"][1].clone();
    assert_eq!(status["event_type"], "status_change", "{whole:#}");
    assert_eq!(status["details"], "Changed to status: stopped");
}
