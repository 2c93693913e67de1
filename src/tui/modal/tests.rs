//! The modals over real demo turns and hand-made events, snapshotted at 80×24 and 160×48
//! (through `render::tests`, where the snapshots live).

use crate::protocol::EventMsg;
use crate::tui::modal::ModalKind;
use crate::tui::render::tests::{FRANCE, WEB_SEARCH, both_sizes, modal_view};
use crate::tui::test_support::{
    apply_as, demo_turns, demo_until, first_answer, fold, tool_begin, tool_end,
};

#[tokio::test(start_paused = true)]
async fn every_modal_over_a_finished_turn() {
    let state = fold(&demo_turns(&[FRANCE]).await);
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
        both_sizes(&format!("modal_{name}"), &state, &modal_view(kind));
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
}

#[tokio::test(start_paused = true)]
async fn inspect_lists_the_session_turns_and_details_the_chosen_one() {
    let state = fold(&demo_turns(&["First question?", "Second question?"]).await);
    let view = modal_view(ModalKind::Turns { selected: 0 });
    both_sizes("modal_inspect", &state, &view);
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
    both_sizes("modal_servers", &state, &modal_view(ModalKind::Servers));
}
