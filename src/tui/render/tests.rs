//! Whole-screen snapshots (ratatui `TestBackend`) at 80×24 and 160×48, from states folded
//! out of real demo turns and hand-made events; the helpers the modal tests draw with.

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::protocol::{AgentId, Event, EventMsg, Mode, Usage};
use crate::tui::choices::NextQuestion;
use crate::tui::frame::render;
use crate::tui::state::UiState;
use crate::tui::test_support::{
    apply_as, demo_turns, demo_until, first_answer, first_vote, fold, fold_until, resume,
    run_started, scripted_turns, tool_begin, tool_end,
};
use crate::tui::theme::Theme;
use crate::tui::view::{ModalKind, View};

pub(crate) const FRANCE: &str = "What is the capital of France?";
pub(crate) const WEB_SEARCH: &str = "mcp__search__web_search";

pub(crate) fn view() -> View {
    let mut view = View::default();
    view.clocks.elapsed_secs = Some(42);
    view.clocks.agent_elapsed_secs = vec![Some(40), Some(41), Some(39)];
    view
}

pub(crate) fn modal_view(kind: ModalKind) -> View {
    let mut view = view();
    view.modals.open(kind);
    view
}

pub(crate) fn draw(state: &UiState, view: &View, width: u16, height: u16) -> TestBackend {
    draw_with(state, view, &NextQuestion::default(), width, height)
}

/// [`draw`] with the app's mode and choices for the next question.
pub(crate) fn draw_with(
    state: &UiState,
    view: &View,
    next: &NextQuestion,
    width: u16,
    height: u16,
) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| render(state, view, next, &Theme::default(), frame))
        .unwrap();
    terminal.backend().clone()
}

/// Everything a drawn screen shows, as one string, for `contains` checks.
pub(crate) fn screen_text(backend: &TestBackend) -> String {
    backend
        .buffer()
        .content()
        .iter()
        .map(|cell| cell.symbol())
        .collect()
}

/// Snapshots of the screen at both sizes. Every snapshot is taken in this file, so that the
/// modal tests' snapshots keep their names and place.
pub(crate) fn both_sizes(name: &str, state: &UiState, view: &View) {
    both_sizes_with(name, state, view, &NextQuestion::default());
}

/// [`both_sizes`] with the app's mode and choices for the next question.
pub(crate) fn both_sizes_with(name: &str, state: &UiState, view: &View, next: &NextQuestion) {
    assert_snapshot!(
        format!("{name}_80x24"),
        draw_with(state, view, next, 80, 24)
    );
    assert_snapshot!(
        format!("{name}_160x48"),
        draw_with(state, view, next, 160, 48)
    );
}

/// A snapshot at 40×12, named and placed as `both_sizes` names them.
pub(crate) fn tiny_size(name: &str, state: &UiState, view: &View) {
    assert_snapshot!(format!("{name}_40x12"), draw(state, view, 40, 12));
}

/// A snapshot at 80×24 only, named and placed as `both_sizes` names them.
pub(crate) fn small_size(name: &str, state: &UiState, view: &View) {
    assert_snapshot!(format!("{name}_80x24"), draw(state, view, 80, 24));
}

#[tokio::test(start_paused = true)]
async fn welcome_lists_the_agents() {
    let state = demo_until("q", run_started).await;
    both_sizes("welcome", &state, &view());
    tiny_size("welcome", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn three_agents_streaming_with_a_tool_card() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [
            tool_begin("c1", WEB_SEARCH, r#"{"query":"capital of France"}"#),
            tool_end("c1", WEB_SEARCH, true, "Paris", 320),
            tool_begin("c2", "read_file", r#"{"path":"notes/france.md"}"#),
        ],
    );
    both_sizes("streaming", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn voting_shows_votes_in_the_timeline_and_the_tally() {
    let state = demo_until(FRANCE, first_vote).await;
    both_sizes("voting", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_winner_presents_its_final_answer() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let winner = state.turn.winner.clone().unwrap();
    let focused = state.agent_index(&winner).unwrap();
    both_sizes("winner", &state, &{
        let mut view = view();
        view.cards.focused = focused;
        view
    });
}

#[tokio::test(start_paused = true)]
async fn narrow_terminals_get_tabs_and_one_focused_card() {
    let state = demo_until(FRANCE, first_vote).await;
    let mut view = view();
    view.cards.focused = 1;
    assert_snapshot!("tabs_100x30", draw(&state, &view, 100, 30));
    assert_snapshot!("tabs_80x24", draw(&state, &view, 80, 24));
    let mut maximized = view.clone();
    maximized.cards.maximized = true;
    maximized.cards.focused = 2;
    assert_snapshot!("maximized_160x48", draw(&state, &maximized, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn five_agents_get_tabs_when_one_card_is_chosen() {
    let yaml = (1..=5)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend: {{type: scripted, model: model-{n}, answer: \"Answer {n} to {{question}}\"}}\n"
            )
        })
        .collect::<String>();
    let events = scripted_turns(&format!("agents:\n{yaml}"), &["Five views?"]).await;
    let state = fold_until(&events, first_vote);
    let mut view = view();
    view.cards.focused = 3;
    view.clocks.agent_elapsed_secs = vec![Some(7); 5];
    view.cards.single = true;
    assert_snapshot!("tabs_160x48", draw(&state, &view, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn the_mode_bar_in_each_mode_and_a_refusal() {
    let state = demo_until("q", run_started).await;
    for mode in [Mode::Normal, Mode::Planning, Mode::Execute] {
        let name = format!("mode_{mode:?}").to_lowercase();
        let next = NextQuestion {
            mode,
            ..NextQuestion::default()
        };
        both_sizes_with(&name, &state, &view(), &next);
    }
    let refused = View {
        notice: Some(
            "Cannot change plan mode while a turn runs: wait for it to end or cancel it (Ctrl+C)"
                .into(),
        ),
        ..view()
    };
    both_sizes("mode_refused", &state, &refused);
}

#[tokio::test(start_paused = true)]
async fn an_agent_error_shows_on_its_card() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        2,
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
                timing: None,
            },
            EventMsg::AgentError {
                message: "invalid key for Anthropic: set ANTHROPIC_API_KEY".into(),
            },
            EventMsg::AgentKilled {
                reason: "the model call failed".into(),
            },
        ],
    );
    both_sizes("error", &state, &{
        let mut view = view();
        view.cards.focused = 2;
        view
    });
}

#[tokio::test(start_paused = true)]
async fn scrolling_past_the_top_of_a_card_shows_its_top_not_a_blank() {
    let state = demo_until(FRANCE, first_vote).await;
    let mut far = view();
    far.cards.scroll = 10_000;
    let screen = format!("{:?}", draw(&state, &far, 80, 24));
    assert!(screen.contains("round 1"), "{screen}");
    assert!(
        far.cards.scroll_max.get() < 100,
        "the furthest scroll is measured: {}",
        far.cards.scroll_max.get()
    );
}

#[tokio::test(start_paused = true)]
async fn the_slash_command_popup_sits_above_the_composer() {
    let state = demo_until("q", run_started).await;
    let mut view = view();
    view.input.composer.set_text("/");
    view.input.popup = crate::tui::complete::suggest("/", std::path::Path::new("."));
    assert_snapshot!("popup_commands_80x24", draw(&state, &view, 80, 24));
}

#[tokio::test(start_paused = true)]
async fn runs_of_calls_to_one_server_fold_and_reasoning_expands() {
    let mut state = demo_until(FRANCE, first_answer).await;
    let mut msgs = vec![EventMsg::ReasoningDelta {
        text: "First I will search.\nThen I will read the notes.\nFinally I answer.".into(),
    }];
    for call in 0..5 {
        msgs.push(tool_begin(
            &format!("s{call}"),
            WEB_SEARCH,
            &format!(r#"{{"query":"capital of France, take {call}"}}"#),
        ));
    }
    msgs.push(tool_begin("r1", "read_file", r#"{"path":"notes.md"}"#));
    apply_as(&mut state, 0, msgs);
    let collapsed = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(collapsed.contains("(+2 more search calls"), "{collapsed}");
    assert_eq!(
        collapsed.matches("search/web_search").count(),
        3,
        "{collapsed}"
    );
    assert!(!collapsed.contains("First I will search."), "{collapsed}");
    let mut expanded = view();
    expanded.cards.reasoning_expanded = true;
    assert_snapshot!(
        "batched_tools_expanded_160x48",
        draw(&state, &expanded, 160, 48)
    );
}

#[tokio::test(start_paused = true)]
async fn code_blocks_in_answers_are_highlighted() {
    let mut state = demo_until("q", run_started).await;
    let agents = state.agents.iter().map(|card| card.info.clone()).collect();
    apply_as(
        &mut state,
        0,
        [
            EventMsg::TurnStarted {
                options: Default::default(),
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
    let mut events = demo_turns(&[FRANCE]).await;
    let last = events.last().unwrap().clone();
    events.push(Event {
        seq: last.seq + 1,
        msg: EventMsg::HistoryCleared,
        agent: None,
        ..last
    });
    let state = fold(&events);
    assert_snapshot!("cleared_80x24", draw(&state, &view(), 80, 24));
}

#[tokio::test(start_paused = true)]
async fn a_continued_session_cleared_earlier_says_where_its_history_starts() {
    use crate::protocol::{ResumedTurn, TurnOutcome};

    let mut state = demo_until("q", run_started).await;
    let turns = (1..=3)
        .map(|turn| ResumedTurn {
            turn,
            question: format!("Question {turn}?"),
            winner: Some(AgentId::new("scholar")),
            outcome: TurnOutcome::Completed,
            events: Vec::new(),
        })
        .collect();
    state.apply(&Event {
        seq: 99,
        turn: 0,
        agent: None,
        at: jiff::Timestamp::UNIX_EPOCH,
        msg: EventMsg::SessionResumed {
            session_id: "session_20261122_120000".into(),
            turns,
            history_from: Some(3),
            notice: None,
        },
    });
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("1 earlier turn in the history, cleared before turn 3"),
        "{screen}"
    );
    assert!(screen.contains("(/inspect lists all 3)"), "{screen}");
}

#[tokio::test(start_paused = true)]
async fn a_continued_session_lists_its_earlier_turns() {
    use crate::protocol::{ResumedTurn, TurnOutcome};

    let mut state = demo_until("q", run_started).await;
    let resumed = |turn: u32, question: &str, outcome| ResumedTurn {
        turn,
        question: question.into(),
        winner: (outcome == TurnOutcome::Completed).then(|| AgentId::new("scholar")),
        outcome,
        events: Vec::new(),
    };
    resume(
        &mut state,
        vec![
            resumed(1, "First question?", TurnOutcome::Completed),
            resumed(2, "Second, cancelled", TurnOutcome::Cancelled),
        ],
    );
    assert_snapshot!("resumed_80x24", draw(&state, &view(), 80, 24));
    let inspect = modal_view(ModalKind::Turns { selected: 0 });
    let screen = format!("{:?}", draw(&state, &inspect, 80, 24));
    assert!(screen.contains("First question?"), "{screen}");
    assert!(screen.contains("Second, cancel"), "{screen}");
}
