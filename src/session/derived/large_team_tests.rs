//! A large team's turn: its derived files reach the disk in pieces, none held whole.

use std::io::{self, Write};

use super::each_compacted;
use crate::protocol::{AgentId, AgentInfo, AnswerLabel, Event, EventMsg, Mode};
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
        }
    }
    events
}

/// Counts what reaches it and remembers the largest single write.
#[derive(Default)]
struct Sink {
    total: usize,
    largest: usize,
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.total += bytes.len();
        self.largest = self.largest.max(bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_large_teams_table_and_coordination_events_are_written_a_piece_at_a_time() {
    let events = large_turn();
    let mut sinks = Vec::new();
    each_compacted(&events, |relative, write| {
        let mut sink = Sink::default();
        write(&mut sink)?;
        sinks.push((relative.display().to_string(), sink));
        Ok(())
    })
    .unwrap();
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
