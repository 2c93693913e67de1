//! The grid on screen: 6 and 9 agents at 200×50 and 160×48, after `g` (one card), the
//! winner's cell marked; and over a sweep of terminal sizes, every frame either draws each
//! agent once in a readable, separate cell or falls back to the tabs.

use insta::assert_snapshot;

use super::grid::{self, READABLE_HEIGHT, READABLE_WIDTH};
use super::tests::{draw, view};
use ratatui::layout::Rect;

use crate::protocol::{AgentId, AgentInfo, EventMsg, Mode};
use crate::tui::state::UiState;
use crate::tui::test_support::{event, first_vote, fold, fold_until, scripted_turns};
use crate::tui::view::View;

/// The events of a turn of `count` scripted agents, each answering in a few sentences.
async fn turn_of(count: usize) -> Vec<crate::protocol::Event> {
    let yaml = (1..=count)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend: {{type: scripted, model: model-{n}, answer: \"Answer {n}: \
                 the agents split the work, compare their drafts and vote for the best one; \
                 this is view {n} of {{question}}\"}}\n"
            )
        })
        .collect::<String>();
    scripted_turns(&format!("agents:\n{yaml}"), &["Many views?"]).await
}

fn many_view(count: usize, focused: usize) -> View {
    let mut view = view();
    view.cards.focused = focused;
    view.clocks.agent_elapsed_secs = vec![Some(7); count];
    view
}

#[tokio::test(start_paused = true)]
async fn six_agents_in_a_grid() {
    let state = fold_until(&turn_of(6).await, first_vote);
    let view = many_view(6, 4);
    assert_snapshot!("grid6_200x50", draw(&state, &view, 200, 50));
    assert_snapshot!("grid6_160x48", draw(&state, &view, 160, 48));
    let mut one = view;
    one.cards.single = true;
    assert_snapshot!("grid6_single_card_200x50", draw(&state, &one, 200, 50));
}

#[tokio::test(start_paused = true)]
async fn nine_agents_in_a_grid() {
    let state = fold_until(&turn_of(9).await, first_vote);
    let view = many_view(9, 7);
    assert_snapshot!("grid9_200x50", draw(&state, &view, 200, 50));
    assert_snapshot!("grid9_160x48", draw(&state, &view, 160, 48));
    let mut one = view;
    one.cards.single = true;
    assert_snapshot!("grid9_single_card_160x48", draw(&state, &one, 160, 48));
}

#[tokio::test(start_paused = true)]
async fn five_agents_in_a_grid_and_tabs_when_small() {
    let state = fold_until(&turn_of(5).await, first_vote);
    let view = many_view(5, 3);
    assert_snapshot!("grid5_160x48", draw(&state, &view, 160, 48));
    // 80×24 cannot hold five readable cards: tabs, and no word on `g`.
    let small = super::tests::screen_text(&draw(&state, &view, 80, 24));
    assert!(small.contains("1:agent1"), "tabs:\n{small}");
    assert!(!small.contains("g: one card"), "{small}");
}

#[tokio::test(start_paused = true)]
async fn the_winner_is_marked_in_its_cell() {
    let state = fold(&turn_of(6).await);
    let winner = state.turn.winner.clone().unwrap();
    let index = state.agent_index(&winner).unwrap();
    let view = many_view(6, index);
    let backend = draw(&state, &view, 200, 50);
    assert_snapshot!("grid6_winner_200x50", backend);
    // The winner's cell, and only it, has the double frame; every agent has a cell.
    let hits = view.hits.borrow().clone();
    assert_eq!(hits.cards.len(), 6);
    let buffer = backend.buffer();
    for (shown, cell) in &hits.cards {
        let corner = buffer[(cell.x, cell.y)].symbol().to_string();
        assert_eq!(corner == "╔", *shown == index, "agent {shown}: {corner}");
    }
}

/// A running turn of `count` agents, nothing said yet.
fn started(count: usize) -> UiState {
    let agents = AgentInfo::roster((1..=count).map(|n| {
        (
            AgentId::new(format!("agent{n}")),
            "scripted".to_string(),
            format!("model-{n}"),
        )
    }));
    let mut state = UiState::default();
    state.apply(&event(
        1,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "q".into(),
            mode: Mode::Normal,
            agents,
            log_dir: None,
        },
    ));
    state
}

#[test]
fn every_frame_draws_each_agent_once_readably_or_tabs() {
    let mut grids = 0;
    for count in 5..=12 {
        let state = started(count);
        let view = many_view(count, count - 1);
        for width in (80..=300u16).step_by(22) {
            for height in (24..=80u16).step_by(8) {
                draw(&state, &view, width, height);
                let hits = view.hits.borrow();
                let body = hits.cards_body.unwrap();
                let cells: Vec<Rect> = hits.cards.iter().map(|(_, rect)| *rect).collect();
                let at = format!("{count} agents at {width}×{height}");
                if cells.iter().any(|cell| cell.height == 1) {
                    // Tabs (as many as fit), then the focused card.
                    let (card, tabs) = hits.cards.split_last().unwrap();
                    assert!(tabs.iter().all(|(_, tab)| tab.height == 1), "{at}");
                    assert_eq!(card.0, count - 1, "{at}");
                    assert!(grid::arrange(count, body).is_none(), "{at}");
                    continue;
                }
                grids += 1;
                let shown: Vec<usize> = hits.cards.iter().map(|(index, _)| *index).collect();
                assert_eq!(shown, (0..count).collect::<Vec<_>>(), "{at}");
                for (index, cell) in cells.iter().enumerate() {
                    assert!(cell.width >= READABLE_WIDTH, "{at}: {cell:?}");
                    assert!(cell.height >= READABLE_HEIGHT, "{at}: {cell:?}");
                    assert_eq!(body.union(*cell), body, "{at}: {cell:?}");
                    assert!(
                        cells[index + 1..]
                            .iter()
                            .all(|other| !other.intersects(*cell)),
                        "{at}: {cell:?} overlaps"
                    );
                }
            }
        }
    }
    assert!(grids > 50, "the sweep drew grids ({grids})");
}
