//! Snapshots of the views from behaviour §3 — `/metrics` (at 40×12 scrolled to its tools
//! too), `/history`, `/context` and the override browser — at 80×24, 160×48 and 40×12.

use std::path::PathBuf;

use insta::assert_snapshot;

use crate::config::{ContextPath, Permission};
use crate::protocol::{ContextPath as Attached, EventMsg};
use crate::tui::render::tests::{FRANCE, WEB_SEARCH, both_sizes, draw, modal_view, screen_text};
use crate::tui::state::UiState;
use crate::tui::test_support::{apply_as, demo_turns, fold, tool_end};
use crate::tui::view::{ContextInfo, CwdMode, ModalKind, View};

fn three_sizes(name: &str, state: &UiState, view: &View) {
    both_sizes(name, state, view);
    assert_snapshot!(format!("{name}_40x12"), draw(state, view, 40, 12));
}

#[tokio::test(start_paused = true)]
async fn metrics_per_agent_and_per_tool() {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    apply_as(
        &mut state,
        0,
        [
            tool_end("c1", WEB_SEARCH, true, "", 320),
            tool_end("c2", WEB_SEARCH, false, "", 1_500),
        ],
    );
    apply_as(
        &mut state,
        1,
        [tool_end("c3", "mcp__fs__read_file", true, "", 40)],
    );
    let view = modal_view(ModalKind::Metrics);
    let screen = screen_text(&draw(&state, &view, 160, 48));
    for wanted in [
        "scout",
        "scholar",
        "critic",
        "mcp__search__web_search",
        "ttft",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    three_sizes("modal_metrics", &state, &view);
    // At 40×12 the per-tool figures are below the agents': scrolled to the end, they show.
    let mut scrolled = view.clone();
    scrolled.modals.stack[0].scroll = usize::MAX;
    let tools = screen_text(&draw(&state, &scrolled, 40, 12));
    for wanted in [
        "mcp__search__web_search",
        "2 calls · 1 ok · 1 failed",
        "mcp__fs__read_file",
    ] {
        assert!(tools.contains(wanted), "{wanted}: {tools}");
    }
    assert_snapshot!("modal_metrics_tools_40x12", draw(&state, &scrolled, 40, 12));
}

#[tokio::test(start_paused = true)]
async fn history_lists_each_question_and_final_answer_as_markdown() {
    let state = fold(&demo_turns(&[FRANCE, "And of Italy?"]).await);
    let answer = &state.turns[0].final_answer.as_ref().unwrap().content;
    assert!(
        answer.contains("**Answer.**"),
        "the demo answer is bold: {answer}"
    );
    let view = modal_view(ModalKind::History);
    let screen = screen_text(&draw(&state, &view, 160, 48));
    assert!(screen.contains("Answer. For"), "{screen}");
    assert!(
        !screen.contains("**"),
        "bold is drawn, not shown raw: {screen}"
    );
    three_sizes("modal_history", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn context_shows_config_paths_attachments_and_the_cwd_toggle() {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    for (index, name) in [(0, "scout"), (1, "scholar")] {
        let dir = PathBuf::from("/work/proj/.massgen/workspaces");
        apply_as(
            &mut state,
            index,
            [EventMsg::WorkspaceAssigned {
                workspace: dir.join(name),
                temp: dir.join(format!("temp/{name}")),
                snapshot: dir.join(format!("snapshots/{name}")),
            }],
        );
    }
    let mut view = modal_view(ModalKind::Context);
    view.context = ContextInfo {
        config_paths: vec![
            ContextPath {
                path: PathBuf::from("docs"),
                permission: Permission::Read,
                protected_paths: Vec::new(),
            },
            ContextPath {
                path: PathBuf::from("/work/proj/src"),
                permission: Permission::Write,
                protected_paths: vec![PathBuf::from("secrets")],
            },
        ],
        config_file: Some(PathBuf::from("team.yaml")),
        attached: vec![Attached {
            path: PathBuf::from("/work/proj/notes.md"),
            writable: false,
        }],
        cwd: PathBuf::from("/work/proj"),
        home: Some(PathBuf::from("/work")),
        cwd_mode: CwdMode::Read,
        memories: Vec::new(),
    };
    let screen = screen_text(&draw(&state, &view, 160, 48));
    assert!(screen.contains("~/proj [read]"), "{screen}");
    assert!(
        screen.contains("read+write /work/proj/.massgen/workspaces/scholar"),
        "{screen}"
    );
    three_sizes("modal_context", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn the_override_browser_marks_the_winner_and_says_what_enter_does() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let selected = crate::tui::modal::first_override_choice(&state);
    three_sizes(
        "modal_override",
        &state,
        &modal_view(ModalKind::Override { selected }),
    );
}
