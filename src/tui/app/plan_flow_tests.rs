//! A plan's way through the app: approval waiting for `P` while a question is typed, the
//! execution ending back in Normal mode, and the plan selector keeping its plan by id
//! when a listing comes late.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::plan_tests::{back_tab, finish};
use super::tests::{agents, key, top_modal, type_text};
use super::{App, Effect};
use crate::protocol::{EventMsg, Mode, Op, PlanInfo, PlanStatus, TurnOptions, TurnOutcome};
use crate::tui::test_plans::{PLAN_ID, listed_plans, plan, tasks_fresh, turn_started};
use crate::tui::test_support::event;
use crate::tui::view::{ModalKind, TaskSource};

const SECOND: &str = "plan_20261122_101500_654321";

fn shift(app: &mut App, ch: char) -> Vec<Effect> {
    app.on_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::SHIFT))
}

fn turn(app: &mut App, seq: u64, mode: Mode, options: TurnOptions) {
    app.on_event(&event(seq, None, turn_started(mode, options, agents())));
}

fn plan_updated(app: &mut App, seq: u64, status: PlanStatus) {
    let info = plan(PLAN_ID, status, tasks_fresh());
    app.on_event(&event(seq, None, EventMsg::PlanUpdated { plan: info }));
}

fn listed(app: &mut App, seq: u64, plans: Vec<PlanInfo>) {
    app.on_event(&event(seq, None, EventMsg::PlansListed { plans }));
}

fn sent_mode(effects: &[Effect]) -> Option<Mode> {
    if let [Effect::Send(Op::Submit { mode, .. })] = effects {
        Some(*mode)
    } else {
        None
    }
}

#[test]
fn after_an_approved_plan_runs_the_next_question_is_a_normal_one() {
    let mut app = App::new(agents());
    back_tab(&mut app);
    turn(&mut app, 1, Mode::Planning, TurnOptions::default());
    plan_updated(&mut app, 2, PlanStatus::Ready);
    finish(&mut app, 3);
    assert_eq!(top_modal(&app), Some(ModalKind::PlanApproval));
    app.on_key(key(KeyCode::Enter));
    let running = TurnOptions {
        plan: Some(PLAN_ID.into()),
        ..TurnOptions::default()
    };
    turn(&mut app, 4, Mode::Execute, running);
    plan_updated(&mut app, 5, PlanStatus::Completed);
    finish(&mut app, 6);
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(app.next.choices.plan, None);
    assert_eq!(
        app.view.notice,
        Some(format!("plan {PLAN_ID} done: back to Normal mode"))
    );
    type_text(&mut app, "What next?");
    assert_eq!(
        sent_mode(&app.on_key(key(KeyCode::Enter))),
        Some(Mode::Normal)
    );
}

#[test]
fn an_auto_executed_plan_that_is_cancelled_also_ends_in_normal_mode() {
    let mut app = App::new(agents());
    back_tab(&mut app);
    let auto = TurnOptions {
        auto_execute: true,
        ..TurnOptions::default()
    };
    turn(&mut app, 1, Mode::Planning, auto);
    plan_updated(&mut app, 2, PlanStatus::Ready);
    finish(&mut app, 3);
    assert_eq!((top_modal(&app), app.next.mode), (None, Mode::Planning));
    turn(&mut app, 4, Mode::Execute, TurnOptions::default());
    app.on_event(&event(
        5,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 10,
        },
    ));
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(
        app.view.notice,
        Some(format!(
            "plan {PLAN_ID} ended (cancelled): back to Normal mode"
        ))
    );
}

#[test]
fn a_plan_ready_while_a_question_is_typed_waits_for_p() {
    let mut app = App::new(agents());
    back_tab(&mut app);
    turn(&mut app, 1, Mode::Planning, TurnOptions::default());
    type_text(&mut app, "and the tests");
    plan_updated(&mut app, 2, PlanStatus::Ready);
    finish(&mut app, 3);
    assert_eq!(top_modal(&app), None, "the typing is not interrupted");
    assert_eq!(
        app.view.notice,
        Some(format!(
            "plan {PLAN_ID} is ready: P (or /plan) to review and approve"
        ))
    );
    type_text(&mut app, "P");
    assert_eq!(app.view.input.composer.text(), "and the testsP");
    app.view.input.composer.clear();
    type_text(&mut app, "/plan");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::PlanApproval));
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Esc));
    shift(&mut app, 'P');
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanOptions { row: 0 }),
        "a plan kept for later leaves P to the options"
    );
    app.on_key(key(KeyCode::Esc));

    // Approved through `P`: executed at once.
    turn(&mut app, 4, Mode::Planning, TurnOptions::default());
    app.view.input.focused = true;
    type_text(&mut app, "x");
    plan_updated(&mut app, 5, PlanStatus::Ready);
    finish(&mut app, 6);
    app.on_key(key(KeyCode::Esc));
    shift(&mut app, 'P');
    assert_eq!(top_modal(&app), Some(ModalKind::PlanApproval));
    assert_eq!(
        sent_mode(&app.on_key(key(KeyCode::Enter))),
        Some(Mode::Execute)
    );
}

#[test]
fn the_selector_keeps_the_chosen_plan_by_id_when_a_listing_comes_later() {
    let mut app = App::new(agents());
    listed(&mut app, 1, listed_plans());
    back_tab(&mut app);
    back_tab(&mut app);
    listed(&mut app, 2, listed_plans());
    app.on_key(key(KeyCode::Down));
    app.on_key(key(KeyCode::Down));
    app.on_key(key(KeyCode::Enter));
    assert_eq!(app.next.choices.plan.as_deref(), Some(SECOND));
    app.on_key(key(KeyCode::Esc));
    assert_eq!(shift(&mut app, 'P'), [Effect::Send(Op::ListPlans)]);
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 2 })
    );
    // A plan made elsewhere meanwhile comes first in the new listing.
    let mut newer = listed_plans();
    newer.insert(
        0,
        plan(
            "plan_20261125_080000_000000",
            PlanStatus::Ready,
            tasks_fresh(),
        ),
    );
    listed(&mut app, 3, newer);
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 3 })
    );
    app.on_key(key(KeyCode::Enter));
    assert_eq!(app.next.choices.plan.as_deref(), Some(SECOND));
}

#[test]
fn v_on_latest_shows_the_plan_latest_runs() {
    let mut app = App::new(agents());
    back_tab(&mut app);
    back_tab(&mut app);
    let mut plans = listed_plans();
    plans.rotate_left(2);
    // Failed first, then the ready one.
    listed(&mut app, 1, plans);
    app.on_key(key(KeyCode::Char('v')));
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::TaskPlan {
            source: TaskSource::Listed(1)
        })
    );
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Esc));
    back_tab(&mut app);
    back_tab(&mut app);
    back_tab(&mut app);
    let failed: Vec<PlanInfo> = listed_plans()
        .into_iter()
        .filter(|plan| plan.status == PlanStatus::Failed)
        .collect();
    listed(&mut app, 2, failed);
    app.on_key(key(KeyCode::Char('v')));
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 0 }),
        "no plan can run: nothing to show"
    );
}

#[test]
fn an_execution_that_leaves_tasks_open_ends_partial_not_done() {
    let mut app = App::new(agents());
    let running = TurnOptions {
        plan: Some(PLAN_ID.into()),
        ..TurnOptions::default()
    };
    back_tab(&mut app);
    back_tab(&mut app);
    turn(&mut app, 1, Mode::Execute, running);
    let tasks = crate::tui::test_plans::tasks_mid_execution();
    let mut info = plan(PLAN_ID, PlanStatus::Partial, tasks.clone());
    info.outcome = Some(crate::protocol::PlanOutcome::of(&tasks));
    app.on_event(&event(2, None, EventMsg::PlanUpdated { plan: info }));
    finish(&mut app, 3);
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(
        app.view.notice,
        Some(format!(
            "plan {PLAN_ID} partial (2/7 tasks done): back to Normal mode"
        ))
    );
}
