//! Unit tests of the plain and quiet printers on hand-made event sequences.

use std::io::{self, Write};

use super::{Display, PlainPrinter, Printer, QuietPrinter, Style};
use crate::protocol::{
    AgentId, AgentInfo, AnswerLabel, Event, EventMsg, FinalAnswerStrategy, Mode, TurnOutcome,
    Usage, VoteCount, WinnerBasis,
};

fn event(seq: u64, agent: Option<&str>, msg: EventMsg) -> Event {
    Event {
        seq,
        at: jiff::Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: agent.map(AgentId::new),
        msg,
    }
}

fn roster() -> Vec<AgentInfo> {
    AgentInfo::roster(
        ["a", "b"].map(|id| (AgentId::new(id), "scripted".to_string(), "m".to_string())),
    )
}

fn turn_events() -> Vec<Event> {
    let anon_a = roster()[0].anon_id.clone();
    let text = |agent, text: &str| EventMsg::TextDelta { text: text.into() }.with(agent);
    vec![
        event(
            1,
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "Why?".into(),
                mode: Mode::Normal,
                agents: roster(),
                log_dir: None,
            },
        ),
        text("a", "Hello "),
        text("b", "Other "),
        event(
            4,
            Some("a"),
            EventMsg::ReasoningDelta {
                text: "thinking".into(),
            },
        ),
        text("a", "world\n"),
        event(
            6,
            Some("a"),
            EventMsg::AnswerSubmitted {
                label: AnswerLabel::answer(&anon_a, 1),
                anon_id: anon_a.clone(),
                content: "Because.\nMore.".into(),
                votes_reset: None,
            },
        ),
        event(
            7,
            Some("a"),
            EventMsg::WinnerSelected {
                winner: AgentId::new("a"),
                winner_anon: anon_a.clone(),
                tally: vec![VoteCount {
                    agent: AgentId::new("a"),
                    anon_id: anon_a.clone(),
                    votes: 2,
                    voters: Vec::new(),
                }],
                is_tie: false,
                basis: WinnerBasis::Votes,
            },
        ),
        event(
            8,
            Some("a"),
            EventMsg::FinalPresentationStarted {
                label: AnswerLabel::final_presentation(&anon_a),
                strategy: FinalAnswerStrategy::WinnerPresent,
            },
        ),
        event(
            9,
            Some("a"),
            EventMsg::ReasoningDelta {
                text: "plan".into(),
            },
        ),
        event(
            10,
            Some("a"),
            EventMsg::FinalPresentationDelta {
                text: "Final ".into(),
            },
        ),
        event(
            11,
            Some("a"),
            EventMsg::FinalPresentationDelta {
                text: "text.".into(),
            },
        ),
        event(
            12,
            Some("a"),
            EventMsg::FinalPresentationDone {
                label: AnswerLabel::final_presentation(&anon_a),
                content: "Final text.".into(),
                fallback: false,
            },
        ),
        event(
            13,
            None,
            EventMsg::TurnFinished {
                outcome: TurnOutcome::Completed,
                winner: Some(AgentId::new("a")),
                duration_ms: 1500,
            },
        ),
    ]
}

trait With {
    fn with(self, agent: &str) -> Event;
}

impl With for EventMsg {
    fn with(self, agent: &str) -> Event {
        event(0, Some(agent), self)
    }
}

#[test]
fn plain_output_reads_as_a_transcript() {
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    for event in turn_events() {
        printer.print(&event).unwrap();
    }
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(
        out,
        "━━ Turn 1 ━━ Why?\n\
         \x20  agents: a (m) · b (m)\n\
         [a] 💭 thinking\n\
         [a] Hello world\n\
         [a] ✔ answer agent1.1: Because. …\n\
         [b] Other\n\
         🏆 Winner: a (agent1) — 2 of 2 votes   [a 2]\n\
         [a] 💭 plan\n\
         ── Final answer · a (agent1.final) ──\n\
         Final text.\n\
         ──\n\
         ✓ done in 1.5 s · 0 tokens (0 in, 0 out)\n"
    );
}

/// The closing line of a turn whose calls used `costs`.
fn closing_line(costs: &[Option<f64>], estimated: bool) -> String {
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    let events = turn_events();
    let (last, rest) = events.split_last().unwrap();
    for event in rest {
        printer.print(event).unwrap();
    }
    for cost_usd in costs {
        let usage = Usage {
            input_tokens: 1000,
            output_tokens: 200,
            estimated,
            ..Usage::default()
        };
        printer
            .print(
                &EventMsg::Usage {
                    usage,
                    cost_usd: *cost_usd,
                    timing: None,
                }
                .with("a"),
            )
            .unwrap();
    }
    printer
        .print(
            &EventMsg::Retrying {
                attempt: 1,
                max_retries: 3,
                delay_ms: 4000,
                reason: "rate limited".into(),
            }
            .with("b"),
        )
        .unwrap();
    printer.print(last).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert!(
        out.contains("[b] ⟳ rate limited, retrying in 4.0 s (1/3)\n"),
        "{out}"
    );
    out.lines().last().unwrap().to_string()
}

#[test]
fn the_closing_line_adds_up_cost_or_says_it_is_unknown() {
    assert_eq!(
        closing_line(&[Some(0.0125), Some(0.0025)], false),
        "✓ done in 1.5 s · 2400 tokens (2000 in, 400 out) · $0.0150"
    );
    assert_eq!(
        closing_line(&[Some(0.01), None], false),
        "✓ done in 1.5 s · 2400 tokens (2000 in, 400 out) · cost unknown (a model has no price in the table)"
    );
    assert_eq!(
        closing_line(&[Some(0.0)], true),
        "✓ done in 1.5 s · ~1200 tokens (1000 in, 200 out)",
        "counted with a tokenizer"
    );
}

#[test]
fn quiet_output_is_the_final_answer_and_failures_go_to_diagnostics() {
    let mut printer = QuietPrinter::new(Vec::new(), Vec::new());
    for event in turn_events() {
        printer.print(&event).unwrap();
    }
    printer
        .print(&event(
            14,
            None,
            EventMsg::Warning {
                message: "careful".into(),
            },
        ))
        .unwrap();
    printer
        .print(&event(
            15,
            None,
            EventMsg::TurnFinished {
                outcome: TurnOutcome::TimedOut,
                winner: None,
                duration_ms: 1,
            },
        ))
        .unwrap();
    let (out, diagnostics) = printer.into_inner();
    assert_eq!(String::from_utf8(out).unwrap(), "Final text.\n");
    assert_eq!(
        String::from_utf8(diagnostics).unwrap(),
        "warning: careful\nmassgen: the turn timed out\n"
    );
}

/// A writer whose reader has gone away.
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(io::ErrorKind::BrokenPipe))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_pipe_silences_the_display_without_failing() {
    let mut display = Display::new(Box::new(PlainPrinter::new(ClosedPipe, Style::new(false))));
    for event in turn_events() {
        display.handle(&event).unwrap();
    }
}

#[test]
fn a_provider_tool_prints_its_query_and_pages_and_quiet_prints_nothing() {
    let call = crate::protocol::ProviderToolCall {
        call_id: "ws_1".into(),
        tool: "web_search".into(),
        input: "capital of France".into(),
        sources: (1..=7)
            .map(|page| crate::protocol::Source {
                title: if page == 1 {
                    "Paris - Wikipedia".into()
                } else {
                    String::new()
                },
                url: format!("https://example.com/{page}"),
            })
            .collect(),
        output: String::new(),
        ok: true,
    };
    let started = turn_events().remove(0);
    let provider = EventMsg::ProviderTool(call).with("a");
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    printer.print(&started).unwrap();
    printer.print(&provider).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let lines: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(
        lines,
        [
            "[a] ☁ provider/web_search capital of France ✓",
            "[a]   ↳ Paris - Wikipedia — https://example.com/1",
            "[a]   ↳ https://example.com/2",
            "[a]   ↳ https://example.com/3",
            "[a]   ↳ https://example.com/4",
            "[a]   ↳ https://example.com/5",
            "[a]   ↳ … 2 more",
        ]
    );
    let mut quiet = QuietPrinter::new(Vec::new(), Vec::new());
    quiet.print(&provider).unwrap();
    let (out, diagnostics) = quiet.into_inner();
    assert!(out.is_empty() && diagnostics.is_empty());
}

#[test]
fn an_override_of_the_final_answer_is_a_line_of_its_own() {
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    let label: crate::protocol::AnswerLabel =
        serde_json::from_value(serde_json::json!("agent2.1")).unwrap();
    printer
        .print(
            &EventMsg::FinalOverridden {
                label,
                agent: crate::protocol::AgentId::new("b"),
                content: "Other".into(),
            }
            .with("b"),
        )
        .unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(out, "👤 override: final answer is agent2.1 (b)\n");
}

#[test]
fn answer_now_is_a_line_naming_the_stopped_agents_and_quiet_prints_nothing() {
    let answer_now = event(
        7,
        None,
        EventMsg::AnswerNow {
            stopped: vec![AgentId::new("c")],
        },
    );
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    printer.print(&answer_now).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(
        out,
        "⚡ answer now: refinement ended (c stopped); the leader presents\n"
    );
    let mut quiet = QuietPrinter::new(Vec::new(), Vec::new());
    quiet.print(&answer_now).unwrap();
    let (out, diagnostics) = quiet.into_inner();
    assert!(out.is_empty() && diagnostics.is_empty());
}

#[test]
fn a_fairness_hold_and_its_release_are_lines_of_the_agent_and_quiet_prints_nothing() {
    let hold = event(8, Some("a"), EventMsg::FairnessHold { lead: 2, cap: 2 });
    let release = event(9, Some("a"), EventMsg::FairnessReleased);
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    printer.print(&hold).unwrap();
    printer.print(&release).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(
        out,
        "[a] ⏸ held: waiting for peers (lead 2/2)\n[a] ▶ released: peers caught up or voted\n"
    );
    let mut quiet = QuietPrinter::new(Vec::new(), Vec::new());
    quiet.print(&hold).unwrap();
    quiet.print(&release).unwrap();
    let (out, diagnostics) = quiet.into_inner();
    assert!(out.is_empty() && diagnostics.is_empty());
}

#[test]
fn subtasks_and_a_stop_are_lines_of_their_agents_and_quiet_prints_nothing() {
    let subtasks = event(
        10,
        None,
        EventMsg::SubtasksAssigned {
            subtasks: vec![
                (AgentId::new("a"), "Build the API".into()),
                (AgentId::new("b"), "Write the docs".into()),
            ],
            source: crate::protocol::SubtaskSource::Config,
        },
    );
    let stop = event(
        11,
        Some("a"),
        EventMsg::AgentStopped {
            summary: "endpoints done".into(),
            status: "complete".into(),
        },
    );
    let mut printer = PlainPrinter::new(Vec::new(), Style::new(false));
    printer.print(&subtasks).unwrap();
    printer.print(&stop).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    assert_eq!(
        out,
        "[a] ▸ subtask: Build the API\n[b] ▸ subtask: Write the docs\n\
         [a] ■ stopped (complete): endpoints done\n"
    );
    let mut quiet = QuietPrinter::new(Vec::new(), Vec::new());
    quiet.print(&subtasks).unwrap();
    quiet.print(&stop).unwrap();
    let (out, diagnostics) = quiet.into_inner();
    assert!(out.is_empty() && diagnostics.is_empty());
}
