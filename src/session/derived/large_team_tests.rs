//! A large team's turn: its derived files reach the disk in pieces, none held whole.

use std::io::{self, Write};

use super::each_compacted;
use crate::protocol::{AgentId, AgentInfo, AnswerLabel, CallTiming, Event, EventMsg, Mode, Usage};
use crate::session::pretty_json;
use crate::tui::test_support::event;

const AGENTS: usize = 96;
const ROUNDS: u32 = 2;

/// 96 agents each start two rounds seeing all 96 answers: the coordination table is as
/// wide as the team and as long as its rounds, megabytes of text.
fn large_turn() -> Vec<Event> {
    let agents = AgentInfo::roster(
        (1..=AGENTS).map(|n| (AgentId::new(format!("a{n}")), "m".into(), "m".into())),
    );
    let labels: Vec<AnswerLabel> = agents
        .iter()
        .map(|info| AnswerLabel::answer(&info.anon_id, 1))
        .collect();
    let mut events = vec![event(
        1,
        None,
        EventMsg::TurnStarted {
            question: "q".into(),
            mode: Mode::Normal,
            agents: agents.clone(),
            log_dir: None,
            options: Default::default(),
        },
    )];
    for round in 1..=ROUNDS {
        for info in &agents {
            let seq = events.len() as u64 + 1;
            let msg = EventMsg::RoundStarted {
                round,
                answers_seen: labels.clone(),
                vote_only: false,
                time_limit: None,
            };
            events.push(event(seq, Some(info.id.as_str()), msg));
            let usage = EventMsg::Usage {
                usage: Usage::default(),
                cost_usd: Some(0.5),
                timing: Some(CallTiming {
                    duration_ms: 1_200,
                    ttft_ms: Some(300),
                }),
            };
            events.push(event(seq + 1, Some(info.id.as_str()), usage));
        }
    }
    events
}

/// Keeps what reaches it and remembers the largest single write.
#[derive(Default)]
struct Sink {
    bytes: Vec<u8>,
    total: usize,
    largest: usize,
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(bytes);
        self.total += bytes.len();
        self.largest = self.largest.max(bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Each derived file of the large turn, as written to its writer.
fn written_files() -> Vec<(String, Sink)> {
    let events = large_turn();
    let mut sinks = Vec::new();
    each_compacted(&events, |relative, write| {
        let mut sink = Sink::default();
        write(&mut sink)?;
        sinks.push((relative.display().to_string(), sink));
        Ok(())
    })
    .unwrap();
    sinks
}

#[test]
fn a_large_teams_table_and_coordination_events_are_written_a_piece_at_a_time() {
    let sinks = written_files();
    for (name, size) in [
        ("coordination_table.txt", 1_000_000),
        ("coordination_events.json", 200_000),
    ] {
        let (_, sink) = sinks.iter().find(|(path, _)| path == name).unwrap();
        assert!(sink.total > size, "{name}: {} bytes", sink.total);
        assert!(
            sink.largest < 64 * 1024,
            "{name} was written whole: {} bytes at once",
            sink.largest
        );
    }
}

/// The metrics files list every round (the summary twice: by agent and in turn order):
/// each is written a member at a time, and its bytes are still `serde_json`'s pretty form
/// of the whole document, as when it was built as one value.
#[test]
fn a_large_teams_metrics_files_are_written_a_piece_at_a_time_with_the_same_bytes() {
    let sinks = written_files();
    for name in ["metrics_summary.json", "metrics_events.json"] {
        let (_, sink) = sinks.iter().find(|(path, _)| path == name).unwrap();
        let rounds = AGENTS * ROUNDS as usize;
        assert!(sink.total > rounds * 400, "{name}: {} bytes", sink.total);
        assert!(
            sink.largest < 16 * 1024,
            "{name} was written whole: {} bytes at once",
            sink.largest
        );
        let whole: serde_json::Value = serde_json::from_slice(&sink.bytes).unwrap();
        let text = String::from_utf8(pretty_json(&whole)).unwrap();
        assert_eq!(
            String::from_utf8(sink.bytes.clone()).unwrap(),
            text,
            "{name}"
        );
    }
    let (_, summary) = sinks
        .iter()
        .find(|(path, _)| path == "metrics_summary.json")
        .unwrap();
    let summary: serde_json::Value = serde_json::from_slice(&summary.bytes).unwrap();
    assert_eq!(summary["agents"].as_object().unwrap().len(), AGENTS);
    assert_eq!(
        summary["rounds"]["by_round"].as_array().unwrap().len(),
        AGENTS * ROUNDS as usize
    );
    assert_eq!(
        summary["agents"]["a7"]["round_history"]
            .as_array()
            .unwrap()
            .len(),
        ROUNDS as usize
    );
}
