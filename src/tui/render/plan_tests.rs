//! Planning on screen, snapshotted at 80×24 and 160×48 (through `render::tests`, where the
//! snapshots live): the mode bar's variants, the options popover, plan approval, the plan
//! selector, the task-plan view, the question modal, and a card with a task plan and a
//! blocked call.

use super::tests::{
    FRANCE, both_sizes, both_sizes_with, draw, draw_with, modal_view, small_size, view,
};
use crate::protocol::{
    AgentId, BroadcastTarget, EventMsg, Mode, PlanDepth, PlanStatus, TurnOptions,
};
use crate::tui::choices::{Choices, NextQuestion};
use crate::tui::question::QuestionForm;
use crate::tui::state::UiState;
use crate::tui::test_plans::{
    PLAN_ID, asked, listed_plans, plan, questions, task, tasks_fresh, tasks_mid_execution,
};
use crate::tui::test_support::{apply_as, demo_turns, demo_until, first_answer, fold, run_started};
use crate::tui::view::{ModalKind, TaskSource};

#[tokio::test(start_paused = true)]
async fn the_mode_bar_with_one_agent_refinement_off_and_a_chosen_plan() {
    let state = demo_until("q", run_started).await;
    let single = NextQuestion {
        mode: Mode::Planning,
        choices: Choices {
            single: Some(AgentId::new("scout")),
            refine: false,
            ..Choices::default()
        },
    };
    both_sizes_with("mode_planning_single_refine_off", &state, &view(), &single);
    let chosen = NextQuestion {
        mode: Mode::Execute,
        choices: Choices {
            plan: Some(PLAN_ID.into()),
            single: Some(AgentId::new("scholar")),
            ..Choices::default()
        },
    };
    both_sizes_with("mode_execute_chosen_plan", &state, &view(), &chosen);
}

#[tokio::test(start_paused = true)]
async fn the_planning_options_popover_sits_above_the_mode_bar() {
    let state = demo_until("q", run_started).await;
    let next = NextQuestion {
        mode: Mode::Planning,
        choices: Choices {
            depth: PlanDepth::Deep,
            ..Choices::default()
        },
    };
    let view = modal_view(ModalKind::PlanOptions { row: 1 });
    both_sizes_with("plan_options", &state, &view, &next);
}

/// A finished demo turn, as if it had been a planning turn that made `PLAN_ID`.
async fn planned() -> UiState {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    state.turn.mode = Mode::Planning;
    let info = plan(PLAN_ID, PlanStatus::Ready, tasks_fresh());
    apply_as(&mut state, 0, [EventMsg::PlanUpdated { plan: info }]);
    state
}

#[tokio::test(start_paused = true)]
async fn the_approval_lists_every_task_with_its_figures() {
    let state = planned().await;
    both_sizes(
        "plan_approval",
        &state,
        &modal_view(ModalKind::PlanApproval),
    );
}

#[tokio::test(start_paused = true)]
async fn the_plan_selector_with_plans_empty_and_loading() {
    let mut state = demo_until("q", run_started).await;
    let execute = NextQuestion {
        mode: Mode::Execute,
        ..NextQuestion::default()
    };
    let selector = |selected| modal_view(ModalKind::PlanSelector { selected });
    let mut loading = selector(0);
    loading.modals.plans_loading = true;
    let screen = format!("{:?}", draw_with(&state, &loading, &execute, 80, 24));
    assert!(screen.contains("Loading plans…"), "{screen}");
    apply_as(&mut state, 0, [EventMsg::PlansListed { plans: Vec::new() }]);
    both_sizes_with("plan_selector_empty", &state, &selector(0), &execute);
    apply_as(
        &mut state,
        0,
        [EventMsg::PlansListed {
            plans: listed_plans(),
        }],
    );
    both_sizes_with("plan_selector", &state, &selector(2), &execute);
    let latest = format!("{:?}", draw_with(&state, &selector(0), &execute, 160, 48));
    assert!(
        latest.contains("Latest runs: plan_20261124_174012_123456"),
        "{latest}"
    );
}

/// The demo turn after its first answer, as an execute turn whose first agent works
/// through `tasks_mid_execution` and had a call blocked.
async fn executing() -> UiState {
    let mut state = demo_until(FRANCE, first_answer).await;
    state.turn.mode = Mode::Execute;
    state.turn.options = TurnOptions {
        plan: Some(PLAN_ID.into()),
        ..TurnOptions::default()
    };
    apply_as(
        &mut state,
        0,
        [
            EventMsg::TaskPlanChanged {
                tasks: tasks_mid_execution(),
            },
            EventMsg::ToolBlocked {
                call_id: "b1".into(),
                tool: "mcp__github__create_issue".into(),
                arguments: r#"{"title":"Ship it"}"#.into(),
                message: "irreversible: blocked until the final presentation".into(),
            },
        ],
    );
    state
}

#[tokio::test(start_paused = true)]
async fn a_card_shows_its_task_progress_and_a_blocked_call() {
    let state = executing().await;
    both_sizes("card_tasks_blocked", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_task_plan_view_shows_the_tree_mid_execution() {
    let state = executing().await;
    let view = modal_view(ModalKind::TaskPlan {
        source: TaskSource::Agent(0),
    });
    both_sizes("task_plan", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn the_question_modal_with_options_and_with_free_text() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        1,
        [asked("r1", BroadcastTarget::Human, questions())],
    );
    let pending = state.planning.questions[0].clone();
    let mut form = QuestionForm::new(&pending);
    let first = &pending.questions[0];
    form.move_cursor(first, true);
    form.toggle(first);
    for ch in "a file is fine".chars() {
        form.type_char(first, ch);
    }
    form.cursor = 1;
    let open = |form: QuestionForm| {
        let mut view = modal_view(ModalKind::Question);
        view.modals.question = Some(form);
        view.clocks.question_secs_left = Some(272);
        view
    };
    both_sizes("question_options", &state, &open(form.clone()));
    form.next(2);
    for ch in "Search by tag".chars() {
        form.type_char(&pending.questions[1], ch);
    }
    both_sizes("question_free_text", &state, &open(form));
}

#[tokio::test(start_paused = true)]
async fn planning_events_reach_the_coordination_table_and_the_event_list() {
    let mut state = executing().await;
    apply_as(
        &mut state,
        1,
        [
            EventMsg::PlanningModeDecided {
                irreversible: true,
                blocked_tools: Vec::new(),
            },
            asked("r1", BroadcastTarget::Human, questions()),
            EventMsg::BroadcastAnswered {
                request_id: "r1".into(),
                from: None,
                answer: "SQLite".into(),
            },
        ],
    );
    let table = format!(
        "{:?}",
        draw(&state, &modal_view(ModalKind::Coordination), 160, 48)
    );
    for cell in [
        "🛡 planning mode",
        "🛡 irreversible",
        "🚫 github/create_issue",
        "📣 asks",
    ] {
        assert!(table.contains(cell), "{cell}: {table}");
    }
    let events = modal_view(ModalKind::Events { turns: 1 });
    let events = format!("{:?}", draw(&state, &events, 160, 48));
    for line in [
        "planning mode: irreversible, every MCP tool blocked",
        "asks you: Which database",
        "you replied: SQLite",
    ] {
        assert!(events.contains(line), "{line}: {events}");
    }
}

#[tokio::test(start_paused = true)]
async fn latest_in_the_selector_is_the_plan_latest_runs_or_none() {
    let mut state = demo_until("q", run_started).await;
    let execute = NextQuestion {
        mode: Mode::Execute,
        ..NextQuestion::default()
    };
    let latest = modal_view(ModalKind::PlanSelector { selected: 0 });
    let mut plans = listed_plans();
    plans.rotate_left(2);
    apply_as(&mut state, 0, [EventMsg::PlansListed { plans }]);
    let screen = format!("{:?}", draw_with(&state, &latest, &execute, 160, 48));
    assert!(
        screen.contains("Latest runs: plan_20261124_174012_123456"),
        "the failed newest plan is passed over: {screen}"
    );
    let failed = listed_plans()
        .into_iter()
        .filter(|plan| plan.status == PlanStatus::Failed)
        .collect();
    apply_as(&mut state, 0, [EventMsg::PlansListed { plans: failed }]);
    let screen = format!("{:?}", draw_with(&state, &latest, &execute, 160, 48));
    assert!(screen.contains("no plan can be executed yet"), "{screen}");
    assert!(!screen.contains("v: view the full plan"), "{screen}");
}

#[tokio::test(start_paused = true)]
async fn a_required_question_left_unanswered_shows_a_hint() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        1,
        [asked("r1", BroadcastTarget::Human, questions())],
    );
    let mut form = QuestionForm::new(&state.planning.questions[0]);
    form.missing = true;
    let mut view = modal_view(ModalKind::Question);
    view.modals.question = Some(form);
    view.clocks.question_secs_left = Some(272);
    small_size("question_required_hint", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn many_dependencies_leave_the_task_description_readable() {
    use crate::protocol::{TaskPriority, TaskStatus};
    let mut state = executing().await;
    let mut tasks = tasks_mid_execution();
    tasks.push(task(
        "T008",
        "Release the service with its client and docs",
        TaskStatus::Pending,
        TaskPriority::High,
        &["T004", "T005", "T006", "T007"],
    ));
    apply_as(&mut state, 0, [EventMsg::TaskPlanChanged { tasks }]);
    let view = modal_view(ModalKind::TaskPlan {
        source: TaskSource::Agent(0),
    });
    small_size("task_plan_many_dependencies", &state, &view);
}
