//! Whole-screen snapshots (ratatui `TestBackend`) at 80×24 and 160×48, from states folded
//! out of real demo turns and hand-made events.

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::{AgentId, Event, EventMsg, Usage};
use crate::tui::state::UiState;
use crate::tui::test_support::{demo_turns, scripted_turns};

async fn demo_turn(question: &str) -> Vec<Event> {
    demo_turns(&[question]).await
}

/// The state after the events up to and including the first one `stop` matches.
fn fold_until(events: &[Event], stop: impl Fn(&Event) -> bool) -> UiState {
    let mut state = UiState::default();
    for event in events {
        state.apply(event);
        if stop(event) {
            break;
        }
    }
    state
}

/// Folds `msgs` in as events about `agent`.
fn apply_as(state: &mut UiState, agent: &AgentId, msgs: impl IntoIterator<Item = EventMsg>) {
    for msg in msgs {
        state.apply(&Event {
            seq: 10_000,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: Some(agent.clone()),
            msg,
        });
    }
}

fn view() -> View {
    View {
        elapsed_secs: Some(42),
        agent_elapsed_secs: vec![Some(40), Some(41), Some(39)],
        ..View::default()
    }
}

fn draw(state: &UiState, view: &View, width: u16, height: u16) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| render(state, view, &Theme::default(), frame))
        .unwrap();
    terminal.backend().clone()
}

fn both_sizes(name: &str, state: &UiState, view: &View) {
    assert_snapshot!(format!("{name}_80x24"), draw(state, view, 80, 24));
    assert_snapshot!(format!("{name}_160x48"), draw(state, view, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn welcome_lists_the_agents() {
    let events = demo_turn("q").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::RunStarted { .. })
    });
    both_sizes("welcome", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn three_agents_streaming_with_a_tool_card() {
    let events = demo_turn("What is the capital of France?").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::AnswerSubmitted { .. })
    });
    let scout = state.agents[0].info.id.clone();
    apply_as(
        &mut state,
        &scout,
        [
            EventMsg::ToolCallBegin {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                arguments: r#"{"query":"capital of France"}"#.into(),
            },
            EventMsg::ToolCallEnd {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                ok: true,
                output: "Paris".into(),
                duration_ms: 320,
            },
            EventMsg::ToolCallBegin {
                call_id: "c2".into(),
                tool: "read_file".into(),
                arguments: r#"{"path":"notes/france.md"}"#.into(),
            },
        ],
    );
    both_sizes("streaming", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn voting_shows_votes_in_the_timeline_and_the_tally() {
    let events = demo_turn("What is the capital of France?").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::VoteCast { .. })
    });
    both_sizes("voting", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_winner_presents_its_final_answer() {
    let events = demo_turn("What is the capital of France?").await;
    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
    }
    let winner = state.winner.clone().unwrap();
    let focused = state
        .agents
        .iter()
        .position(|card| card.info.id == winner)
        .unwrap();
    both_sizes("winner", &state, &View { focused, ..view() });
}

#[tokio::test(start_paused = true)]
async fn narrow_terminals_get_tabs_and_one_focused_card() {
    let events = demo_turn("What is the capital of France?").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::VoteCast { .. })
    });
    let view = View {
        focused: 1,
        ..view()
    };
    assert_snapshot!("tabs_100x30", draw(&state, &view, 100, 30));
    assert_snapshot!("tabs_80x24", draw(&state, &view, 80, 24));
    let maximized = View {
        maximized: true,
        focused: 2,
        ..view.clone()
    };
    assert_snapshot!("maximized_160x48", draw(&state, &maximized, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn five_agents_get_tabs_even_on_a_wide_terminal() {
    let yaml = (1..=5)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend: {{type: scripted, model: model-{n}, answer: \"Answer {n} to {{question}}\"}}\n"
            )
        })
        .collect::<String>();
    let events = scripted_turns(&format!("agents:\n{yaml}"), &["Five views?"]).await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::VoteCast { .. })
    });
    let view = View {
        focused: 3,
        agent_elapsed_secs: vec![Some(7); 5],
        ..view()
    };
    assert_snapshot!("tabs_160x48", draw(&state, &view, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn the_mode_bar_in_each_mode_and_a_refusal() {
    let events = demo_turn("q").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::RunStarted { .. })
    });
    for mode in [Mode::Normal, Mode::Planning, Mode::Execute] {
        let name = format!("mode_{mode:?}").to_lowercase();
        both_sizes(&name, &state, &View { mode, ..view() });
    }
    let refused = View {
        notice: Some("the mode cannot change while a turn runs".into()),
        ..view()
    };
    both_sizes("mode_refused", &state, &refused);
}

#[tokio::test(start_paused = true)]
async fn an_agent_error_shows_on_its_card() {
    let events = demo_turn("What is the capital of France?").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::AnswerSubmitted { .. })
    });
    let critic = state.agents[2].info.id.clone();
    apply_as(
        &mut state,
        &AgentId::new(critic.as_str()),
        [
            EventMsg::Retrying {
                attempt: 1,
                max_retries: 3,
                delay_ms: 4000,
                reason: "rate limited".into(),
            },
            EventMsg::Usage {
                usage: Usage {
                    input_tokens: 1200,
                    output_tokens: 80,
                    ..Usage::default()
                },
                cost_usd: None,
            },
            EventMsg::AgentError {
                message: "invalid key for Anthropic: set ANTHROPIC_API_KEY".into(),
            },
            EventMsg::AgentKilled {
                reason: "the model call failed".into(),
            },
        ],
    );
    both_sizes(
        "error",
        &state,
        &View {
            focused: 2,
            ..view()
        },
    );
}

#[tokio::test(start_paused = true)]
async fn every_modal_over_a_finished_turn() {
    use crate::tui::modal::{Modal, ModalKind};

    let events = demo_turn("What is the capital of France?").await;
    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
    }
    for (name, kind) in [
        ("help", ModalKind::Help),
        ("votes", ModalKind::Votes),
        ("costs", ModalKind::Costs),
        ("answers", ModalKind::Answers { selected: 1 }),
        ("timeline", ModalKind::Timeline),
        ("output", ModalKind::AgentOutput { agent: 1 }),
        ("status", ModalKind::Status),
        ("coordination", ModalKind::Coordination),
    ] {
        let view = View {
            modals: vec![Modal::new(kind)],
            ..view()
        };
        both_sizes(&format!("modal_{name}"), &state, &view);
    }
}

#[tokio::test(start_paused = true)]
async fn the_tool_call_detail_shows_arguments_and_result() {
    use crate::tui::modal::{Modal, ModalKind};

    let events = demo_turn("What is the capital of France?").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::AnswerSubmitted { .. })
    });
    let scout = state.agents[0].info.id.clone();
    apply_as(
        &mut state,
        &scout,
        [
            EventMsg::ToolCallBegin {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                arguments: r#"{"query":"capital of France","limit":3}"#.into(),
            },
            EventMsg::ToolCallEnd {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                ok: true,
                output: "1. Paris — capital and largest city of France.".into(),
                duration_ms: 320,
            },
        ],
    );
    let view = View {
        modals: vec![Modal::new(ModalKind::Tools {
            agent: 0,
            selected: 0,
        })],
        ..view()
    };
    both_sizes("modal_tools", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn scrolling_past_the_top_of_a_card_shows_its_top_not_a_blank() {
    let events = demo_turn("What is the capital of France?").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::VoteCast { .. })
    });
    let far = View {
        card_scroll: 10_000,
        ..view()
    };
    let screen = format!("{:?}", draw(&state, &far, 80, 24));
    assert!(screen.contains("round 1"), "{screen}");
    assert!(
        far.card_scroll_max.get() < 100,
        "the furthest scroll is measured: {}",
        far.card_scroll_max.get()
    );
}

#[tokio::test(start_paused = true)]
async fn the_slash_command_popup_sits_above_the_composer() {
    let events = demo_turn("q").await;
    let state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::RunStarted { .. })
    });
    let mut view = view();
    view.composer.set_text("/");
    view.popup = crate::tui::complete::suggest("/", std::path::Path::new("."));
    assert_snapshot!("popup_commands_80x24", draw(&state, &view, 80, 24));
}

#[tokio::test(start_paused = true)]
async fn inspect_lists_the_session_turns_and_details_the_chosen_one() {
    use crate::tui::modal::{Modal, ModalKind};

    let events = demo_turns(&["First question?", "Second question?"]).await;
    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
    }
    let view = View {
        modals: vec![Modal::new(ModalKind::Turns { selected: 0 })],
        ..view()
    };
    both_sizes("modal_inspect", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn runs_of_calls_to_one_server_fold_and_reasoning_expands() {
    let events = demo_turn("What is the capital of France?").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::AnswerSubmitted { .. })
    });
    let scout = state.agents[0].info.id.clone();
    let mut msgs = vec![EventMsg::ReasoningDelta {
        text: "First I will search.\nThen I will read the notes.\nFinally I answer.".into(),
    }];
    for call in 0..5 {
        msgs.push(EventMsg::ToolCallBegin {
            call_id: format!("s{call}"),
            tool: "mcp__search__web_search".into(),
            arguments: format!(r#"{{"query":"capital of France, take {call}"}}"#),
        });
    }
    msgs.push(EventMsg::ToolCallBegin {
        call_id: "r1".into(),
        tool: "read_file".into(),
        arguments: r#"{"path":"notes.md"}"#.into(),
    });
    apply_as(&mut state, &scout, msgs);
    let collapsed = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(collapsed.contains("(+2 more search calls"), "{collapsed}");
    assert_eq!(
        collapsed.matches("search/web_search").count(),
        3,
        "{collapsed}"
    );
    assert!(!collapsed.contains("First I will search."), "{collapsed}");
    let expanded = View {
        reasoning_expanded: true,
        ..view()
    };
    assert_snapshot!(
        "batched_tools_expanded_160x48",
        draw(&state, &expanded, 160, 48)
    );
}

#[tokio::test(start_paused = true)]
async fn code_blocks_in_answers_are_highlighted() {
    let events = demo_turn("q").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::RunStarted { .. })
    });
    let scout = state.agents[0].info.id.clone();
    let agents = state.agents.iter().map(|card| card.info.clone()).collect();
    apply_as(
        &mut state,
        &scout,
        [
            EventMsg::TurnStarted {
                question: "Show me".into(),
                mode: Mode::Normal,
                agents,
                log_dir: None,
            },
            EventMsg::TextDelta {
                text: "Here it is:\n```rust\nfn main() { let answer = 42; }\n```\nThat's all.\n"
                    .into(),
            },
        ],
    );
    let backend = draw(&state, &view(), 160, 48);
    let buffer = backend.buffer();
    let mut colours = std::collections::HashSet::new();
    for y in 0..buffer.area.height {
        let row: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        if let Some(column) = row.find("fn main()") {
            let start = row[..column].chars().count() as u16;
            for x in start..start + 30 {
                colours.insert(format!("{:?}", buffer[(x, y)].fg));
            }
        }
    }
    assert!(
        colours.len() > 2,
        "several colours on the code line: {colours:?}"
    );
    assert!(format!("{backend:?}").contains("That's all."));
}

#[tokio::test(start_paused = true)]
async fn after_clear_the_welcome_view_says_the_history_is_gone() {
    let mut events = demo_turn("What is the capital of France?").await;
    let last = events.last().unwrap().clone();
    events.push(Event {
        seq: last.seq + 1,
        msg: EventMsg::HistoryCleared,
        agent: None,
        ..last
    });
    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
    }
    assert_snapshot!("cleared_80x24", draw(&state, &view(), 80, 24));
}

#[tokio::test(start_paused = true)]
async fn the_mcp_view_lists_servers_with_state_tools_and_failures() {
    use crate::protocol::McpServerState;
    use crate::tui::modal::{Modal, ModalKind};

    let events = demo_turn("What is the capital of France?").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::AnswerSubmitted { .. })
    });
    let scout = state.agents[0].info.id.clone();
    let critic = state.agents[2].info.id.clone();
    apply_as(
        &mut state,
        &scout,
        [
            EventMsg::McpServerStatus {
                server: "search".into(),
                state: McpServerState::Ready {
                    tools: vec![
                        "mcp__search__web_search".into(),
                        "mcp__search__fetch".into(),
                    ],
                },
            },
            EventMsg::McpServerStatus {
                server: "weather".into(),
                state: McpServerState::Failed {
                    error: "`weather-mcp` was not found; install it or fix `command`".into(),
                },
            },
            EventMsg::ToolCallBegin {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                arguments: "{}".into(),
            },
            EventMsg::ToolCallEnd {
                call_id: "c1".into(),
                tool: "mcp__search__web_search".into(),
                ok: false,
                output: "timed out after 30 s".into(),
                duration_ms: 30_000,
            },
        ],
    );
    apply_as(
        &mut state,
        &critic,
        [EventMsg::McpServerStatus {
            server: "search".into(),
            state: McpServerState::Paused { retry_in_secs: 30 },
        }],
    );
    let view = View {
        modals: vec![Modal::new(ModalKind::Servers)],
        ..view()
    };
    both_sizes("modal_servers", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn a_continued_session_lists_its_earlier_turns() {
    use crate::protocol::{ResumedTurn, TurnOutcome};
    use crate::tui::modal::{Modal, ModalKind};

    let events = demo_turn("q").await;
    let mut state = fold_until(&events, |event| {
        matches!(event.msg, EventMsg::RunStarted { .. })
    });
    let resumed = |turn: u32, question: &str, outcome| ResumedTurn {
        turn,
        question: question.into(),
        winner: (outcome == TurnOutcome::Completed).then(|| AgentId::new("scholar")),
        outcome,
    };
    state.apply(&Event {
        seq: 2,
        at: jiff::Timestamp::UNIX_EPOCH,
        turn: 0,
        agent: None,
        msg: EventMsg::SessionResumed {
            session_id: "session_20261122_120000".into(),
            turns: vec![
                resumed(1, "First question?", TurnOutcome::Completed),
                resumed(2, "Second, cancelled", TurnOutcome::Cancelled),
            ],
        },
    });
    assert_snapshot!("resumed_80x24", draw(&state, &view(), 80, 24));
    let inspect = View {
        modals: vec![Modal::new(ModalKind::Turns { selected: 0 })],
        ..view()
    };
    let screen = format!("{:?}", draw(&state, &inspect, 80, 24));
    assert!(screen.contains("First question?"), "{screen}");
    assert!(screen.contains("Second, cancel"), "{screen}");
}
