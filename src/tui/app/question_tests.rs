//! Questions from agents at the keyboard: answered with choices and text, skipped, queued,
//! timed out; questions to the agents and replays open nothing.

use crossterm::event::KeyCode;

use super::plan_tests::{back_tab, finish};
use super::tests::{agents, key, start_turn, top_modal, type_text};
use super::{App, Effect};
use crate::protocol::{
    BroadcastTarget, EventMsg, Mode, Op, PlanStatus, QuestionReply, TurnOptions,
};
use crate::tui::test_plans::{PLAN_ID, asked, closed, plan, questions, tasks_fresh, turn_started};
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

#[test]
fn a_question_is_answered_with_the_chosen_ids_and_the_text_typed() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_event(&event(
        2,
        Some("b"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    assert_eq!(top_modal(&app), Some(ModalKind::Question));
    app.on_key(key(KeyCode::Down));
    type_text(&mut app, " ok, a file is fine");
    app.on_key(key(KeyCode::Backspace));
    assert!(app.on_key(key(KeyCode::Tab)).is_empty());
    back_tab(&mut app);
    assert_eq!(
        app.view.modals.question.as_ref().map(|form| form.index),
        Some(0)
    );
    app.on_key(key(KeyCode::Enter));
    type_text(&mut app, "paging");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::AnswerQuestion {
            request_id: "r1".into(),
            replies: vec![
                QuestionReply {
                    selected: vec!["sqlite".into()],
                    text: "ok, a file is fin".into(),
                },
                QuestionReply {
                    selected: Vec::new(),
                    text: "paging".into(),
                },
            ],
        })]
    );
    assert_eq!(top_modal(&app), None);
    assert!(app.view.modals.question.is_none());
    app.on_event(&event(3, Some("b"), closed("r1", false)));
    assert_eq!(top_modal(&app), None, "answered questions do not come back");
}

#[test]
fn esc_skips_a_question_and_the_next_one_in_the_queue_opens() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_key(key(KeyCode::Esc));
    app.on_key(key(KeyCode::Char('v')));
    app.on_event(&event(
        2,
        Some("a"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    app.on_event(&event(
        3,
        Some("b"),
        asked("r2", BroadcastTarget::Human, questions()),
    ));
    assert_eq!(app.view.modals.stack.len(), 2, "on top of the open votes");
    assert_eq!(
        app.on_key(key(KeyCode::Esc)),
        [Effect::Send(Op::AnswerQuestion {
            request_id: "r1".into(),
            replies: Vec::new(),
        })]
    );
    assert_eq!(top_modal(&app), Some(ModalKind::Question));
    assert_eq!(app.view.modals.question.as_ref().unwrap().request_id, "r2");
    app.on_key(key(KeyCode::Esc));
    assert_eq!(top_modal(&app), Some(ModalKind::Votes));
}

#[test]
fn a_question_that_times_out_closes_with_a_notice_and_agents_questions_open_nothing() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_event(&event(
        2,
        Some("a"),
        asked("r9", BroadcastTarget::Agents, questions()),
    ));
    assert_eq!(top_modal(&app), None);
    app.on_event(&event(
        3,
        Some("a"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    type_text(&mut app, "half an answ");
    app.on_paste("er\nover two lines");
    let typed = &app.view.modals.question.as_ref().unwrap().answers[0].text;
    assert_eq!(
        typed, "half an answer over two lines",
        "a paste joins its lines"
    );
    assert!(app.view.input.composer.is_empty());
    app.on_event(&event(4, Some("a"), closed("r1", true)));
    assert_eq!(top_modal(&app), None);
    assert!(app.view.modals.question.is_none());
    assert_eq!(app.view.notice.as_deref(), Some("the question timed out"));
}

#[test]
fn a_replay_opens_neither_questions_nor_the_approval() {
    let mut app = App::new(agents());
    app.on_event(&event(
        0,
        None,
        EventMsg::ReplayStarted {
            source: "recorded".into(),
            speed: 1.0,
            step: false,
        },
    ));
    app.on_event(&event(
        1,
        None,
        turn_started(Mode::Planning, TurnOptions::default(), agents()),
    ));
    app.on_event(&event(
        2,
        Some("a"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    assert_eq!(top_modal(&app), None);
    let info = plan(PLAN_ID, PlanStatus::Ready, tasks_fresh());
    app.on_event(&event(3, None, EventMsg::PlanUpdated { plan: info }));
    finish(&mut app, 4);
    assert_eq!(top_modal(&app), None);
}

#[test]
fn enter_takes_the_highlighted_option_and_a_required_question_waits_for_an_answer() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    let mut asked_now = questions();
    asked_now[1].required = true;
    app.on_event(&event(
        2,
        Some("a"),
        asked("r1", BroadcastTarget::Human, asked_now),
    ));
    app.on_key(key(KeyCode::Down));
    assert!(app.on_key(key(KeyCode::Enter)).is_empty());
    let form = app.view.modals.question.as_ref().unwrap();
    assert_eq!(
        (form.index, form.answers[0].chosen.clone()),
        (1, vec![false, true, false])
    );
    assert!(
        app.on_key(key(KeyCode::Enter)).is_empty(),
        "required: not sent"
    );
    assert!(app.view.modals.question.as_ref().unwrap().missing);
    assert_eq!(top_modal(&app), Some(ModalKind::Question));
    type_text(&mut app, "tags");
    assert!(!app.view.modals.question.as_ref().unwrap().missing);
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        [Effect::Send(Op::AnswerQuestion {
            request_id: "r1".into(),
            replies: vec![
                QuestionReply {
                    selected: vec!["sqlite".into()],
                    text: String::new(),
                },
                QuestionReply {
                    selected: Vec::new(),
                    text: "tags".into(),
                },
            ],
        })]
    );
}

#[test]
fn a_question_closed_under_the_modal_says_it_was_closed() {
    let mut app = App::new(agents());
    start_turn(&mut app);
    app.on_event(&event(
        2,
        Some("a"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    app.on_event(&event(3, Some("a"), closed("r1", false)));
    assert_eq!(top_modal(&app), None);
    assert_eq!(app.view.notice.as_deref(), Some("the question was closed"));
    app.on_event(&event(
        4,
        Some("b"),
        asked("r2", BroadcastTarget::Human, questions()),
    ));
    app.view.notice = None;
    finish(&mut app, 5);
    assert_eq!(top_modal(&app), None);
    assert_eq!(app.view.notice.as_deref(), Some("the question was closed"));
}
