//! The modals over real demo turns and hand-made events, snapshotted at 80×24 and 160×48,
//! some at 40×12 too (through `render::tests`, where the snapshots live).

use crate::protocol::{Event, EventMsg, TurnOutcome};
use crate::tui::render::tests::{
    FRANCE, WEB_SEARCH, both_sizes, draw, modal_view, screen_text, tiny_size,
};
use crate::tui::state::UiState;
use crate::tui::test_support::{
    apply_as, demo_turns, demo_until, evenly_timed, first_answer, fold, fold_until, resume,
    resumed, run_started, tool_begin, tool_end,
};
use crate::tui::view::ModalKind;

#[tokio::test(start_paused = true)]
async fn every_modal_over_a_finished_turn() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    // The answers browser opens on the answer the votes chose.
    let chosen = crate::tui::modal::answer_to_open(&state);
    for (name, kind) in [
        ("help", ModalKind::Help),
        ("votes", ModalKind::Votes),
        ("costs", ModalKind::Costs),
        ("answers", ModalKind::Answers { selected: chosen }),
        ("timeline", ModalKind::Timeline),
        ("output", ModalKind::AgentOutput { agent: 1 }),
        ("status", ModalKind::Status),
        ("coordination", ModalKind::Coordination),
    ] {
        both_sizes(&format!("modal_{name}"), &state, &modal_view(kind));
    }
    for (name, kind) in [
        ("help", ModalKind::Help),
        ("answers", ModalKind::Answers { selected: chosen }),
    ] {
        tiny_size(&format!("modal_{name}"), &state, &modal_view(kind));
    }
}

#[tokio::test(start_paused = true)]
async fn the_tool_call_detail_shows_arguments_and_result() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [
            tool_begin(
                "c1",
                WEB_SEARCH,
                r#"{"query":"capital of France","limit":3}"#,
            ),
            tool_end(
                "c1",
                WEB_SEARCH,
                true,
                "1. Paris — capital and largest city of France.",
                320,
            ),
        ],
    );
    let view = modal_view(ModalKind::Tools {
        agent: 0,
        selected: 0,
    });
    both_sizes("modal_tools", &state, &view);
    tiny_size("modal_tools", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn inspect_lists_the_session_turns_and_details_the_chosen_one() {
    let state = fold(&demo_turns(&["First question?", "Second question?"]).await);
    let view = modal_view(ModalKind::Turns { selected: 0 });
    both_sizes("modal_inspect", &state, &view);
    tiny_size("modal_inspect", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn the_mcp_view_lists_servers_with_state_tools_and_failures() {
    use crate::protocol::McpServerState;

    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [
            EventMsg::McpServerStatus {
                server: "search".into(),
                state: McpServerState::Ready {
                    tools: vec![WEB_SEARCH.into(), "mcp__search__fetch".into()],
                },
            },
            EventMsg::McpServerStatus {
                server: "weather".into(),
                state: McpServerState::Failed {
                    error: "`weather-mcp` was not found; install it or fix `command`".into(),
                },
            },
            tool_begin("c1", WEB_SEARCH, "{}"),
            tool_end("c1", WEB_SEARCH, false, "timed out after 30 s", 30_000),
        ],
    );
    apply_as(
        &mut state,
        2,
        [EventMsg::McpServerStatus {
            server: "search".into(),
            state: McpServerState::Paused { retry_in_secs: 30 },
        }],
    );
    let screen = screen_text(&draw(&state, &modal_view(ModalKind::Servers), 160, 48));
    assert!(screen.contains("ready · 2 tools"), "{screen}");
    assert!(screen.contains(" · 1 call, 1 failed this turn"), "{screen}");
    assert!(
        screen.contains(" · 0 calls, 0 failed this turn"),
        "{screen}"
    );
    both_sizes("modal_servers", &state, &modal_view(ModalKind::Servers));
}

/// A session continued after turn 1, then turn 2 asked live; evenly timed, with a failed
/// tool call in turn 2.
async fn continued_session() -> UiState {
    let events = evenly_timed(demo_turns(&["question 1", "question 2"]).await);
    let (earlier, live): (Vec<Event>, Vec<Event>) =
        events.into_iter().partition(|event| event.turn <= 1);
    let mut state = fold_until(&earlier, run_started);
    resume(
        &mut state,
        vec![resumed(1, TurnOutcome::Completed, &earlier)],
    );
    for event in &live {
        state.apply(event);
        if matches!(event.msg, EventMsg::TurnStarted { .. }) {
            apply_as(
                &mut state,
                0,
                [
                    tool_begin("c1", WEB_SEARCH, "{}"),
                    tool_end("c1", WEB_SEARCH, false, "timed out after 30 s", 30_000),
                ],
            );
            state.timeline.tool_log.last_mut().unwrap().seq = event.seq;
            state.timeline.tool_log.last_mut().unwrap().turn = event.turn;
        }
    }
    state
}

#[tokio::test(start_paused = true)]
async fn inspect_details_a_resumed_turn_down_to_its_votes_final_answer_and_cost() {
    let state = continued_session().await;
    let mut view = modal_view(ModalKind::Turns { selected: 0 });
    both_sizes("modal_inspect_resumed", &state, &view);
    view.modals.stack[0].scroll = usize::MAX;
    both_sizes("modal_inspect_resumed_end", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn costs_sum_every_turn_per_agent_resumed_ones_included() {
    let state = continued_session().await;
    both_sizes("modal_costs_session", &state, &modal_view(ModalKind::Costs));
}

#[tokio::test(start_paused = true)]
async fn events_lists_the_last_turns_with_times_agents_and_tool_calls() {
    let state = continued_session().await;
    both_sizes(
        "modal_events",
        &state,
        &modal_view(ModalKind::Events { turns: usize::MAX }),
    );
    let last = format!(
        "{:?}",
        draw(&state, &modal_view(ModalKind::Events { turns: 1 }), 160, 48)
    );
    assert!(last.contains("Turn 2: question 2"), "{last}");
    assert!(!last.contains("Turn 1: question 1"), "{last}");
}

#[tokio::test(start_paused = true)]
async fn a_cost_without_a_price_shows_as_unknown_in_the_turn_detail() {
    let mut state = continued_session().await;
    state.turns[0].agents[1].spend.cost_unknown = true;
    let mut view = modal_view(ModalKind::Turns { selected: 0 });
    view.modals.stack[0].scroll = usize::MAX;
    let screen = format!("{:?}", draw(&state, &view, 160, 48));
    let scholar = screen
        .lines()
        .find(|line| line.contains("scholar               1540"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(scholar.contains("$0+?"), "{scholar}");
}

#[test]
fn help_fits_its_width_and_keeps_every_word() {
    let theme = crate::tui::theme::Theme::default();
    for width in [36, 76, 156] {
        let lines = super::help::help_lines(&theme, width);
        let text: String = lines
            .iter()
            .map(|line| {
                let shown = line.to_string();
                assert!(
                    crate::tui::render::wrap::display_width(&shown) <= width,
                    "`{shown}` is wider than {width}"
                );
                shown
            })
            .collect::<Vec<_>>()
            .join(" ");
        let words: Vec<&str> = text.split_whitespace().collect();
        for (keys, what) in super::help::KEYS {
            for word in keys.split_whitespace().chain(what.split_whitespace()) {
                assert!(words.contains(&word), "`{word}` is cut at width {width}");
            }
        }
    }
}
