//! TUI frame cost: a 160×48 frame with three agents, with 100 and with 100,000 lines of
//! history (timeline entries and agent output), rendered into ratatui's TestBackend; the
//! same with a deep plan (200 tasks per agent) and its task-plan view open; and how many
//! streamed-token and task-plan events per second the state absorbs; and a frame while every
//! card streams one long paragraph with no line break yet (issue 19).
//!
//! Run: `cargo bench --bench tui_render` (results go in BENCHMARKS.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use jiff::Timestamp;
use massgen::protocol::{
    AgentInfo, AnswerLabel, Event, EventMsg, TaskPriority, TaskStatus, TaskView,
};
use massgen::tui::choices::NextQuestion;
use massgen::tui::frame::render;
use massgen::tui::state::UiState;
use massgen::tui::theme::Theme;
use massgen::tui::view::View;
use massgen::tui::view::{Modal, ModalKind, TaskSource};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

mod support;

use support::{agents, turn_started};

const FRAMES: usize = 2_000;

fn event(seq: u64, agent: Option<&AgentInfo>, msg: EventMsg) -> Event {
    Event {
        seq,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: agent.map(|info| info.id.clone()),
        msg,
    }
}

/// A turn whose timeline has `lines` entries and whose agents streamed `lines` lines of
/// text between them.
fn state_with_history(lines: usize) -> UiState {
    let agents = agents();
    let mut state = UiState::default();
    let mut seq = 0;
    state.apply(&event(seq, None, turn_started(&agents)));
    for line in 0..lines {
        seq += 1;
        let agent = &agents[line % 3];
        state.apply(&event(
            seq,
            Some(agent),
            EventMsg::TextDelta {
                text: format!(
                    "Line {line}: the cache keeps hot keys in memory and evicts by age.\n"
                ),
            },
        ));
        let msg = if line % 2 == 0 {
            EventMsg::AnswerSubmitted {
                label: AnswerLabel::answer(&agent.anon_id, line / 3 + 1),
                anon_id: agent.anon_id.clone(),
                content: format!("Answer {line}: use a write-through cache."),
                votes_reset: None,
            }
        } else {
            let target = &agents[(line + 1) % 3];
            EventMsg::VoteCast {
                target: target.id.clone(),
                target_anon: target.anon_id.clone(),
                target_label: AnswerLabel::answer(&target.anon_id, 1),
                reason: "most complete".into(),
                standing: None,
            }
        };
        state.apply(&event(seq, Some(agent), msg));
    }
    state
}

/// A deep plan: `count` tasks, each after one or two earlier ones, the first `done`
/// verified and the next one in progress.
fn deep_plan(count: usize, done: usize) -> Vec<TaskView> {
    (0..count)
        .map(|index| TaskView {
            id: format!("T{:03}", index + 1),
            description: format!("Step {index}: wire the cache layer into the request path"),
            status: match index.cmp(&done) {
                std::cmp::Ordering::Less => TaskStatus::Verified,
                std::cmp::Ordering::Equal => TaskStatus::InProgress,
                std::cmp::Ordering::Greater => TaskStatus::Pending,
            },
            priority: if index % 7 == 0 {
                TaskPriority::High
            } else {
                TaskPriority::Medium
            },
            depends_on: match index {
                0 => Vec::new(),
                1 => vec!["T001".into()],
                _ => vec![format!("T{:03}", index), format!("T{:03}", index / 2)],
            },
        })
        .collect()
}

fn frame_times(state: &UiState, modals: Vec<Modal>) -> Vec<Duration> {
    let theme = Theme::default();
    let mut view = View::default();
    view.clocks.elapsed_secs = Some(75);
    view.clocks.agent_elapsed_secs = vec![Some(70); 3];
    view.modals.stack = modals;
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut times = Vec::with_capacity(FRAMES);
    for _ in 0..FRAMES {
        let started = Instant::now();
        terminal
            .draw(|frame| render(state, &view, &NextQuestion::default(), &theme, frame))
            .unwrap();
        times.push(started.elapsed());
    }
    times.sort();
    times
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * fraction) as usize]
}

fn main() {
    println!("history lines   timeline   p50 frame   p99 frame   max frame");
    for lines in [100, 100_000] {
        let state = state_with_history(lines);
        let times = frame_times(&state, Vec::new());
        println!(
            "{lines:>13} {:>10} {:>10.3} ms {:>8.3} ms {:>8.3} ms",
            state.timeline.len(),
            percentile(&times, 0.5).as_secs_f64() * 1e3,
            percentile(&times, 0.99).as_secs_f64() * 1e3,
            times.last().unwrap().as_secs_f64() * 1e3,
        );
    }

    // Issue 19: every card streams one paragraph with no line break yet, drawn as it grows.
    for chars in [2_000, 50_000] {
        let mut state = state_with_history(100);
        for (index, agent) in agents().iter().enumerate() {
            let words = "the cache keeps hot keys in memory and evicts by age ";
            let paragraph: String = words.chars().cycle().take(chars).collect();
            state.apply(&event(
                3_000_000 + index as u64,
                Some(agent),
                EventMsg::TextDelta { text: paragraph },
            ));
        }
        let times = frame_times(&state, Vec::new());
        println!(
            "{:>13} {:>10} {:>10.3} ms {:>8.3} ms {:>8.3} ms   (a {chars}-character paragraph streaming in each card)",
            100,
            state.timeline.len(),
            percentile(&times, 0.5).as_secs_f64() * 1e3,
            percentile(&times, 0.99).as_secs_f64() * 1e3,
            times.last().unwrap().as_secs_f64() * 1e3,
        );
    }

    // A deep plan (200 tasks per agent): cards show progress, the task-plan view is open.
    let agents = agents();
    let mut state = state_with_history(100);
    for (index, agent) in agents.iter().enumerate() {
        state.apply(&event(
            1_000_000 + index as u64,
            Some(agent),
            EventMsg::TaskPlanChanged {
                tasks: deep_plan(200, 60 + index * 10),
            },
        ));
    }
    let open = vec![Modal::new(ModalKind::TaskPlan {
        source: TaskSource::Agent(0),
    })];
    let times = frame_times(&state, open);
    println!(
        "{:>13} {:>10} {:>10.3} ms {:>8.3} ms {:>8.3} ms   (200-task plans, task-plan view open)",
        100,
        state.timeline.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
    );
    let updates: Vec<Event> = (0..3_000)
        .map(|index| {
            event(
                2_000_000 + index as u64,
                Some(&agents[index % 3]),
                EventMsg::TaskPlanChanged {
                    tasks: deep_plan(200, index % 200),
                },
            )
        })
        .collect();
    let started = Instant::now();
    for update in &updates {
        state.apply(update);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "folding {} task-plan updates of 200 tasks: {:.0} µs each",
        updates.len(),
        seconds * 1e6 / updates.len() as f64
    );

    // Streaming: token events folded into the state, as the app does between frames.
    let mut state = state_with_history(100);
    let tokens = 300_000;
    let events: Vec<Event> = (0..tokens)
        .map(|index| {
            let text = if index % 12 == 11 {
                " word.\n"
            } else {
                " word"
            };
            event(
                index as u64,
                Some(&agents[index % 3]),
                EventMsg::TextDelta { text: text.into() },
            )
        })
        .collect();
    let started = Instant::now();
    for event in &events {
        state.apply(event);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "folding {tokens} token events: {:.1} M events/s ({:.0} ns each); 3 agents × 5,000 tokens/s need 15,000/s",
        tokens as f64 / seconds / 1e6,
        seconds * 1e9 / tokens as f64
    );
}
