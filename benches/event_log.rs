//! The event log of a turn with 1M streamed tokens: the cost of writing each event to
//! `events.jsonl`, and how fast a replay reads it back (parse only, and parse + fold into
//! the TUI's state without rendering).
//!
//! Run: `cargo bench --bench event_log` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use massgen::protocol::{AgentInfo, AgentStatus, AnswerLabel, Event, EventMsg, Usage};
use massgen::session::{TurnLog, read_events};
use massgen::tui::state::UiState;

mod support;

use support::{agents, turn_started};

const TOKENS: usize = 1_000_000;
const RUNS: usize = 3;

/// Words of a few characters, a line break now and then, a quote or escape rarely: what
/// providers stream.
fn token_text(index: usize) -> String {
    const WORDS: [&str; 8] = [
        " the", " cache", " keeps", " hot", " keys", " in", " memory", ",",
    ];
    match index % 97 {
        0 => " \"quoted\"".to_string(),
        13 => ".\n\n".to_string(),
        _ => WORDS[index % WORDS.len()].to_string(),
    }
}

/// Every few hundred tokens per agent, what else happens in a turn: status changes, a tool
/// call, usage, and per agent one answer and one vote at the end.
fn other_events(index: usize, agent: &AgentInfo, peer: &AgentInfo) -> Vec<EventMsg> {
    let per_agent = index / 3;
    let mut msgs = Vec::new();
    if per_agent.is_multiple_of(500) {
        msgs.push(EventMsg::AgentStatus {
            status: AgentStatus::Streaming,
        });
    }
    if per_agent % 5_000 == 4_999 {
        let call_id = format!("call_{index}");
        msgs.push(EventMsg::ToolCallBegin {
            call_id: call_id.clone(),
            tool: "mcp__search__web_search".into(),
            arguments: r#"{"query":"cache eviction policies"}"#.into(),
            category: None,
        });
        msgs.push(EventMsg::ToolCallEnd {
            call_id,
            tool: "mcp__search__web_search".into(),
            ok: true,
            output: "LRU, LFU and ARC compared; ARC adapts to the workload.".into(),
            duration_ms: 320,
            category: None,
        });
        msgs.push(EventMsg::Usage {
            usage: Usage {
                input_tokens: 12_000,
                output_tokens: 5_000,
                ..Usage::default()
            },
            cost_usd: Some(0.0123),
            timing: Some(massgen::protocol::CallTiming {
                duration_ms: 4_200,
                ttft_ms: Some(350),
            }),
        });
    }
    if index + 3 >= TOKENS {
        msgs.push(EventMsg::AnswerSubmitted {
            label: AnswerLabel::answer(&agent.anon_id, 1),
            anon_id: agent.anon_id.clone(),
            content: "Use a write-through cache with ARC eviction.".into(),
            votes_reset: None,
        });
        msgs.push(EventMsg::VoteCast {
            target: peer.id.clone(),
            target_anon: peer.anon_id.clone(),
            target_label: AnswerLabel::answer(&peer.anon_id, 1),
            reason: "the most complete answer".into(),
            standing: None,
        });
    }
    msgs
}

/// A turn of three agents streaming `TOKENS` tokens between them, 200 µs apart.
fn turn() -> Vec<Event> {
    let agents = agents();
    let mut events = Vec::with_capacity(TOKENS + TOKENS / 100);
    let mut push = |agent: Option<&AgentInfo>, msg: EventMsg| {
        let seq = events.len() as u64 + 1;
        events.push(Event {
            seq,
            at: Timestamp::UNIX_EPOCH + SignedDuration::from_micros(200 * seq as i64),
            turn: 1,
            agent: agent.map(|info| info.id.clone()),
            msg,
        });
    };
    push(None, turn_started(&agents));
    for index in 0..TOKENS {
        let agent = &agents[index % 3];
        for msg in other_events(index, agent, &agents[(index + 1) % 3]) {
            push(Some(agent), msg);
        }
        push(
            Some(agent),
            EventMsg::TextDelta {
                text: token_text(index),
            },
        );
    }
    events
}

fn best_and_median(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2])
}

fn main() {
    let events = turn();
    let count = events.len();
    let dir = tempfile::tempdir().unwrap();
    println!("{count} events ({TOKENS} streamed tokens, 3 agents), best and median of {RUNS} runs");

    let mut writes = Vec::new();
    let mut path = dir.path().join("events.jsonl");
    for run in 0..RUNS {
        let attempt = dir.path().join(format!("attempt_{run}"));
        let mut log = TurnLog::open(attempt.clone()).unwrap();
        let started = Instant::now();
        for event in &events {
            log.append(event).unwrap();
        }
        writes.push(started.elapsed());
        path = attempt.join("events.jsonl");
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    let (best, median) = best_and_median(writes);
    println!(
        "write  (EventLog::append, one write per event): {:.0} / {:.0} ns per event; {:.1} MB, {:.0} bytes per event",
        best.as_secs_f64() * 1e9 / count as f64,
        median.as_secs_f64() * 1e9 / count as f64,
        bytes as f64 / 1e6,
        bytes as f64 / count as f64,
    );

    let mut reads = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let read = read_events(&path).unwrap();
        reads.push(started.elapsed());
        assert_eq!(read.len(), count);
    }
    report("read   (read_events: parse)", count, reads);

    let mut folds = Vec::new();
    let mut last = UiState::default();
    for _ in 0..RUNS {
        let started = Instant::now();
        let mut state = UiState::default();
        for event in &read_events(&path).unwrap() {
            state.apply(event);
        }
        folds.push(started.elapsed());
        last = state;
    }
    assert_eq!(last.agents.len(), 3);
    report(
        "replay (parse + fold into UiState, no render)",
        count,
        folds,
    );
}

fn report(what: &str, count: usize, times: Vec<Duration>) {
    let (best, median) = best_and_median(times);
    println!(
        "{what}: {:.2} / {:.2} M events/s ({:.0} / {:.0} ns per event)",
        count as f64 / best.as_secs_f64() / 1e6,
        count as f64 / median.as_secs_f64() / 1e6,
        best.as_secs_f64() * 1e9 / count as f64,
        median.as_secs_f64() * 1e9 / count as f64,
    );
}
