//! One frame's cost while every agent streams (issue 19): six agents at 200×50 (the grid)
//! and three at 80×24, each frame first folding what 100 ms of a 200 tokens/s stream brings
//! per agent (20 tokens, a paragraph break every 60), then drawing through crossterm into
//! memory as the app draws to the terminal: render, ratatui's diff and the escape
//! sequences written. Reports the time per frame (fold and draw apart) and the bytes
//! written per frame. The in-process companion of `tui_cpu`, quick enough to iterate on.
//!
//! Run: `cargo bench --bench tui_stream_frame` (`FRAMES=N`, default 600). Results go in
//! BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::cell::Cell;
use std::io::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use massgen::protocol::{AgentId, AgentInfo, Event, EventMsg};
use massgen::tui::choices::NextQuestion;
use massgen::tui::frame::render;
use massgen::tui::state::UiState;
use massgen::tui::theme::Theme;
use massgen::tui::view::View;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};

#[allow(dead_code)] // the three-agent roster is for the other benches
mod support;

use support::turn_started;

/// Tokens each agent streams per frame: 100 ms at 200 tokens/s.
const TOKENS_PER_FRAME: usize = 20;
const WORDS: [&str; 12] = [
    " the", " cache", " keeps", " hot", " keys", " in", " memory", " and", " evicts", " by",
    " age,", " so",
];

fn roster(count: usize) -> Vec<AgentInfo> {
    AgentInfo::roster((0..count).map(|index| {
        (
            AgentId::new(format!("agent_{index}")),
            "chatcompletion".to_string(),
            "mock-model".to_string(),
        )
    }))
}

struct Stream {
    agents: Vec<AgentInfo>,
    state: UiState,
    seq: u64,
    tokens: usize,
}

impl Stream {
    fn new(count: usize) -> Self {
        let agents = roster(count);
        let mut state = UiState::default();
        let event = Event {
            seq: 0,
            at: Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: None,
            msg: turn_started(&agents),
        };
        state.apply(&event);
        Self {
            agents,
            state,
            seq: 1,
            tokens: 0,
        }
    }

    /// What every agent streams in one frame's time.
    fn step(&mut self) {
        for _ in 0..TOKENS_PER_FRAME {
            self.tokens += 1;
            let word = WORDS[self.tokens % WORDS.len()];
            let text = if self.tokens.is_multiple_of(60) {
                format!("{word}.\n\n")
            } else {
                word.to_string()
            };
            for agent in &self.agents {
                self.seq += 1;
                self.state.apply(&Event {
                    seq: self.seq,
                    at: Timestamp::UNIX_EPOCH,
                    turn: 1,
                    agent: Some(agent.id.clone()),
                    msg: EventMsg::TextDelta { text: text.clone() },
                });
            }
        }
    }
}

/// Counts what the terminal would be sent, and keeps none of it.
#[derive(Clone, Default)]
struct Counted(Rc<Cell<usize>>);

impl Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.set(self.0.get() + bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn run(agents: usize, cols: u16, rows: u16, frames: usize) {
    let mut stream = Stream::new(agents);
    let theme = Theme::default();
    let mut view = View::default();
    view.clocks.elapsed_secs = Some(12);
    view.clocks.agent_elapsed_secs = vec![Some(12); agents];
    let area = Rect::new(0, 0, cols, rows);
    let written = Counted::default();
    let mut terminal = Terminal::with_options(
        CrosstermBackend::new(written.clone()),
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )
    .unwrap();
    // Fill the cards first, so every frame scrolls them as the live turn does.
    for _ in 0..40 {
        stream.step();
        terminal
            .draw(|frame| {
                render(
                    &stream.state,
                    &view,
                    &NextQuestion::default(),
                    &theme,
                    frame,
                )
            })
            .unwrap();
    }
    written.0.set(0);
    let (mut fold, mut draw) = (Duration::ZERO, Vec::with_capacity(frames));
    for _ in 0..frames {
        let started = Instant::now();
        stream.step();
        fold += started.elapsed();
        let started = Instant::now();
        terminal
            .draw(|frame| {
                render(
                    &stream.state,
                    &view,
                    &NextQuestion::default(),
                    &theme,
                    frame,
                )
            })
            .unwrap();
        draw.push(started.elapsed());
    }
    let bytes = written.0.get();
    draw.sort();
    let mean = draw.iter().sum::<Duration>() / frames as u32;
    println!(
        "{agents} agents {cols:>3}×{rows:<3} draw mean {:>6.3} ms  p50 {:>6.3} ms  p99 {:>6.3} ms   fold {:>6.3} ms   {:>6.1} KiB written per frame",
        mean.as_secs_f64() * 1e3,
        draw[frames / 2].as_secs_f64() * 1e3,
        draw[frames * 99 / 100].as_secs_f64() * 1e3,
        fold.as_secs_f64() * 1e3 / frames as f64,
        bytes as f64 / 1024.0 / frames as f64,
    );
}

fn main() {
    let frames = std::env::var("FRAMES")
        .ok()
        .and_then(|value| value.parse().ok())
        .filter(|frames| *frames > 0)
        .unwrap_or(600);
    println!(
        "per frame: {TOKENS_PER_FRAME} tokens folded per agent, then one frame drawn through crossterm into memory"
    );
    run(6, 200, 50, frames);
    run(6, 160, 48, frames);
    run(3, 80, 24, frames);
}
