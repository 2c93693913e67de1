//! Decomposition mode's subtasks on the agents' cards: one line each, cut at the width.

use super::tests::{FRANCE, both_sizes, draw, view};
use crate::protocol::{AgentId, EventMsg, SubtaskSource};
use crate::tui::test_support::{demo_until, event, first_answer};

#[tokio::test(start_paused = true)]
async fn each_card_shows_its_subtask_on_one_line() {
    let mut state = demo_until(FRANCE, first_answer).await;
    let ids: Vec<AgentId> = state
        .agents
        .iter()
        .map(|card| card.info.id.clone())
        .collect();
    let long = "Write the history section: the Capetians, the Revolution and how Paris became \
                the seat of government, with dates checked against two sources";
    let subtasks = vec![
        (ids[0].clone(), "Check the geography facts".to_string()),
        (ids[1].clone(), long.to_string()),
    ];
    state.apply(&event(
        10_000,
        None,
        EventMsg::SubtasksAssigned {
            subtasks,
            source: SubtaskSource::Config,
        },
    ));
    assert_eq!(
        state.agents[0].subtask.as_deref(),
        Some("Check the geography facts")
    );
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(screen.contains("◆ Check the geography facts"), "{screen}");
    assert!(screen.contains("◆ Write the history section"), "{screen}");
    assert!(
        !screen.contains("two sources"),
        "cut at the card's width: {screen}"
    );
    both_sizes("subtask_card", &state, &view());
}
