//! How an executed plan ended, on screen (snapshots through `render::tests`): a plan left
//! with open tasks says `partial` with the count done in the timeline and on the winner's
//! card, and the saved plan's task view shows each task's final status with no current
//! task.

use super::tests::{FRANCE, both_sizes, draw, modal_view, screen_text, view};
use crate::protocol::{
    EventMsg, Mode, PlanOutcome, PlanStatus, TaskPriority, TaskStatus, TaskView, TurnOptions,
};
use crate::tui::state::UiState;
use crate::tui::test_plans::{PLAN_ID, plan, task};
use crate::tui::test_support::{apply_as, demo_turns, event, fold};
use crate::tui::view::{ModalKind, TaskSource};

/// How execution left the plan: t1 verified, t2 blocked, t3 waiting on it.
fn left_open() -> Vec<TaskView> {
    vec![
        task(
            "t1",
            "Lay the table",
            TaskStatus::Verified,
            TaskPriority::High,
            &[],
        ),
        task(
            "t2",
            "Fetch the cake",
            TaskStatus::Blocked,
            TaskPriority::Medium,
            &[],
        ),
        task(
            "t3",
            "Light the candles",
            TaskStatus::Pending,
            TaskPriority::Medium,
            &["t2"],
        ),
    ]
}

/// A demo turn as an execute turn of `PLAN_ID`: its winner's task list ends as `tasks`,
/// and the plan ends `status` just before the turn finishes, as the runtime reports it.
async fn executed(status: PlanStatus, tasks: Vec<TaskView>) -> UiState {
    let events = demo_turns(&[FRANCE]).await;
    let end = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::TurnFinished { .. }))
        .unwrap_or(events.len());
    let mut state = fold(&events[..end]);
    state.turn.mode = Mode::Execute;
    state.turn.options = TurnOptions {
        plan: Some(PLAN_ID.into()),
        ..TurnOptions::default()
    };
    let winner = state
        .agents
        .iter()
        .position(|card| card.is_winner)
        .unwrap_or_default();
    apply_as(
        &mut state,
        winner,
        [EventMsg::TaskPlanChanged {
            tasks: tasks.clone(),
        }],
    );
    let mut info = plan(PLAN_ID, status, tasks.clone());
    info.outcome = Some(PlanOutcome::of(&tasks));
    info.divergence = Some(0.0);
    state.apply(&event(
        10_001,
        None,
        EventMsg::PlanUpdated { plan: info.clone() },
    ));
    for later in &events[end..] {
        state.apply(later);
    }
    state.apply(&event(
        10_002,
        None,
        EventMsg::PlansListed { plans: vec![info] },
    ));
    state
}

#[tokio::test(start_paused = true)]
async fn a_plan_left_with_open_tasks_is_partial_in_the_timeline_and_on_the_winners_card() {
    let state = executed(PlanStatus::Partial, left_open()).await;
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        screen.contains(&format!(
            "◐ plan {PLAN_ID} partial (1/3 tasks done, divergence 0.00): open t2 blocked, t3 pending"
        )),
        "{screen}"
    );
    assert!(!screen.contains("completed (3 tasks"), "{screen}");
    assert!(
        screen.contains("▸ 1/3 tasks · plan partial: open t2 blocked"),
        "{screen}"
    );
    both_sizes("plan_partial", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_saved_plans_view_shows_each_tasks_final_status_and_no_current_task() {
    let state = executed(PlanStatus::Partial, left_open()).await;
    let tasks = modal_view(ModalKind::TaskPlan {
        source: TaskSource::Listed(0),
    });
    let screen = screen_text(&draw(&state, &tasks, 160, 48));
    assert!(screen.contains("✓ 1/3 · ◌ 1 blocked"), "{screen}");
    assert!(!screen.contains("← current"), "{screen}");
    both_sizes("plan_partial_tasks", &state, &tasks);

    let finished: Vec<TaskView> = left_open()
        .into_iter()
        .map(|task| TaskView {
            status: TaskStatus::Completed,
            ..task
        })
        .collect();
    let state = executed(PlanStatus::Completed, finished).await;
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        screen.contains(&format!(
            "✓ plan {PLAN_ID} completed (3/3 tasks done, divergence 0.00)"
        )),
        "{screen}"
    );
    assert!(screen.contains("▸ 3/3 tasks · plan completed"), "{screen}");
}
