//! Planning from the keyboard: Shift+Tab and its refusal, `A` `R` `P` `T` and their slash
//! commands, the options sent with each question, plan approval and the plan selector.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::plan::MODE_LOCKED;
use super::tests::{agents, key, start_turn, top_modal, type_text};
use super::{App, Effect};
use crate::protocol::{
    AgentId, BroadcastTarget, EventMsg, Mode, Op, PlanDepth, PlanStatus, TurnOptions, TurnOutcome,
};
use crate::tui::test_plans::{PLAN_ID, listed_plans, plan, tasks_fresh, turn_started};
use crate::tui::test_support::event;
use crate::tui::view::{ModalKind, TaskSource};

pub(super) fn back_tab(app: &mut App) -> Vec<Effect> {
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT))
}

fn shift(app: &mut App, ch: char) -> Vec<Effect> {
    app.on_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::SHIFT))
}

fn submitted(app: &mut App, text: &str) -> Vec<Effect> {
    app.view.input.focused = true;
    type_text(app, text);
    app.on_key(key(KeyCode::Enter))
}

pub(super) fn finish(app: &mut App, seq: u64) {
    app.on_event(&event(
        seq,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Completed,
            winner: None,
            duration_ms: 1_000,
        },
    ));
}

/// A planning turn that ended with its plan at `status`.
fn planned(status: PlanStatus, options: TurnOptions) -> App {
    let mut app = App::new(agents());
    app.on_event(&event(
        1,
        None,
        turn_started(Mode::Planning, options, agents()),
    ));
    let info = plan(PLAN_ID, status, tasks_fresh());
    app.on_event(&event(2, None, EventMsg::PlanUpdated { plan: info }));
    finish(&mut app, 3);
    app
}

#[test]
fn shift_tab_cycles_the_plan_mode_and_is_refused_during_a_turn_with_the_reason() {
    let mut app = App::new(agents());
    assert!(back_tab(&mut app).is_empty());
    assert_eq!(app.next.mode, Mode::Planning);
    assert_eq!(back_tab(&mut app), [Effect::Send(Op::ListPlans)]);
    assert_eq!(app.next.mode, Mode::Execute);
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 0 })
    );
    assert!(app.view.modals.plans_loading);
    assert!(back_tab(&mut app).is_empty());
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(top_modal(&app), None, "leaving Execute closes the selector");

    start_turn(&mut app);
    back_tab(&mut app);
    assert_eq!(app.next.mode, Mode::Normal);
    assert_eq!(app.view.notice.as_deref(), Some(MODE_LOCKED));
    app.on_key(key(KeyCode::Esc));
    for (ch, what) in [('A', "agent mode"), ('R', "refinement")] {
        shift(&mut app, ch);
        assert_eq!(
            app.view.notice,
            Some(format!(
                "Cannot change {what} while a turn runs: wait for it to end or cancel it (Ctrl+C)"
            ))
        );
    }
    assert_eq!(app.next.choices, crate::tui::choices::Choices::default());
}

#[test]
fn a_and_r_choose_the_agents_and_refinement_sent_with_the_question() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Esc));
    shift(&mut app, 'A');
    assert_eq!(app.next.choices.single, Some(AgentId::new("a")));
    shift(&mut app, 'A');
    assert_eq!(app.next.choices.single, Some(AgentId::new("b")));
    shift(&mut app, 'R');
    assert!(!app.next.choices.refine);
    assert_eq!(
        submitted(&mut app, "Why?"),
        [Effect::Send(Op::Submit {
            text: "Why?".into(),
            mode: Mode::Normal,
            context_paths: Vec::new(),
            options: TurnOptions {
                single_agent: Some(AgentId::new("b")),
                refine: false,
                ..TurnOptions::default()
            },
        })]
    );
    for command in ["/single", "/single", "/refine"] {
        submitted(&mut app, command);
    }
    assert_eq!(app.next.choices.single, None, "c, then every agent again");
    assert!(app.next.choices.refine);
}

#[test]
fn p_opens_the_planning_options_whose_values_go_with_a_planning_question() {
    let mut app = App::new(agents());
    shift(&mut app, 'P');
    assert_eq!(top_modal(&app), None, "P is a letter in the composer");
    assert_eq!(app.view.input.composer.text(), "P");
    app.view.input.composer.clear();
    app.on_key(key(KeyCode::Esc));
    shift(&mut app, 'P');
    assert!(app.view.notice.as_deref().unwrap().starts_with("P opens"));
    back_tab(&mut app);
    shift(&mut app, 'P');
    assert_eq!(top_modal(&app), Some(ModalKind::PlanOptions { row: 0 }));
    for code in [
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
    ] {
        app.on_key(key(code));
    }
    assert_eq!(top_modal(&app), Some(ModalKind::PlanOptions { row: 2 }));
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), None);
    let sent = submitted(&mut app, "Plan the notes service");
    assert_eq!(
        sent,
        [Effect::Send(Op::Submit {
            text: "Plan the notes service".into(),
            mode: Mode::Planning,
            context_paths: Vec::new(),
            options: TurnOptions {
                plan_depth: PlanDepth::Deep,
                broadcast: Some(BroadcastTarget::Agents),
                auto_execute: true,
                ..TurnOptions::default()
            },
        })]
    );
    submitted(&mut app, "/plan");
    assert_eq!(top_modal(&app), Some(ModalKind::PlanOptions { row: 0 }));
}

#[test]
fn t_and_tasks_open_the_focused_agents_task_plan() {
    let mut app = App::new(agents());
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('3')));
    shift(&mut app, 'T');
    let tasks = ModalKind::TaskPlan {
        source: TaskSource::Agent(2),
    };
    assert_eq!(top_modal(&app), Some(tasks));
    app.on_key(key(KeyCode::Esc));
    submitted(&mut app, "/tasks");
    assert_eq!(top_modal(&app), Some(tasks));
    app.on_key(key(KeyCode::Char('t')));
    assert_eq!(
        top_modal(&app),
        Some(tasks),
        "lowercase keys are the modal's"
    );
}

#[test]
fn an_approved_plan_is_executed_at_once_with_the_exact_submit() {
    let mut app = planned(PlanStatus::Ready, TurnOptions::default());
    assert_eq!(top_modal(&app), Some(ModalKind::PlanApproval));
    app.on_key(key(KeyCode::Down));
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::Submit {
            text: String::new(),
            mode: Mode::Execute,
            context_paths: Vec::new(),
            options: TurnOptions {
                plan: Some(PLAN_ID.into()),
                ..TurnOptions::default()
            },
        })]
    );
    assert_eq!(top_modal(&app), None);
    assert_eq!(app.next.mode, Mode::Execute);
    assert_eq!(app.next.choices.plan.as_deref(), Some(PLAN_ID));
}

#[test]
fn a_plan_kept_for_later_says_how_to_run_it_and_others_are_not_offered() {
    let mut app = planned(PlanStatus::Ready, TurnOptions::default());
    assert!(app.on_key(key(KeyCode::Esc)).is_empty());
    assert_eq!(top_modal(&app), None);
    assert_eq!(
        app.view.notice,
        Some(format!(
            "plan {PLAN_ID} kept: Shift+Tab to Execute runs it later"
        ))
    );
    assert_eq!(app.next.mode, Mode::Normal);

    let auto = TurnOptions {
        auto_execute: true,
        ..TurnOptions::default()
    };
    assert_eq!(top_modal(&planned(PlanStatus::Ready, auto)), None);
    let failed = planned(PlanStatus::Failed, TurnOptions::default());
    assert_eq!(top_modal(&failed), None);
    assert_eq!(
        failed.view.notice,
        Some(format!("plan {PLAN_ID} failed: no reason given"))
    );
}

#[test]
fn the_selector_picks_a_plan_that_the_next_enter_runs_with_instructions() {
    let mut app = App::new(agents());
    back_tab(&mut app);
    back_tab(&mut app);
    app.on_event(&event(
        1,
        None,
        EventMsg::PlansListed {
            plans: listed_plans(),
        },
    ));
    assert!(!app.view.modals.plans_loading);
    for _ in 0..2 {
        app.on_key(key(KeyCode::Down));
    }
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 2 })
    );
    app.on_key(key(KeyCode::Char('v')));
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::TaskPlan {
            source: TaskSource::Listed(1)
        })
    );
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), None);
    assert!(app.view.input.focused);
    let second = "plan_20261122_101500_654321".to_string();
    let options = TurnOptions {
        plan: Some(second.clone()),
        ..TurnOptions::default()
    };
    assert_eq!(
        submitted(&mut app, "skip the docs"),
        [Effect::Send(Op::Submit {
            text: "skip the docs".into(),
            mode: Mode::Execute,
            context_paths: Vec::new(),
            options: options.clone(),
        })]
    );
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::Submit {
            text: String::new(),
            mode: Mode::Execute,
            context_paths: Vec::new(),
            options,
        })],
        "an empty Enter in Execute runs the plan as it is"
    );
    shift(&mut app, 'P');
    assert_eq!(app.view.input.composer.text(), "P");
    app.view.input.composer.clear();
    app.on_key(key(KeyCode::Esc));
    assert_eq!(shift(&mut app, 'P'), [Effect::Send(Op::ListPlans)]);
    assert_eq!(
        top_modal(&app),
        Some(ModalKind::PlanSelector { selected: 2 }),
        "the chosen plan is highlighted again"
    );
    app.on_key(key(KeyCode::Esc));
    assert_eq!(app.next.choices.plan, Some(second), "Esc keeps the choice");
}
