//! Tool calls waiting for approval at the keyboard: each key sends its answer, a denial
//! can carry a message, the queue shows the next call, a call decided elsewhere closes
//! its view, replays open nothing, `/approvals` opens the decisions.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tests::{agents, finish_turn, key, start_turn, top_modal, type_text};
use super::{App, Effect};
use crate::protocol::{ApprovalAnswer, ApprovalRecord, Decider, EventMsg, GrantScope, Op, Verdict};
use crate::tui::test_approvals::{asked, command_request, decided, decided_msg};
use crate::tui::test_support::event;
use crate::tui::view::ModalKind;

fn waiting(ids: &[&str]) -> App {
    let mut app = App::new(agents());
    start_turn(&mut app);
    for (seq, id) in (2..).zip(ids) {
        app.on_event(&event(seq, Some("a"), asked(command_request(id, "ls"))));
    }
    app
}

fn sent(request_id: &str, answer: ApprovalAnswer) -> Vec<Effect> {
    vec![Effect::Send(Op::AnswerApproval {
        request_id: request_id.into(),
        answer,
    })]
}

fn approve(scope: GrantScope) -> ApprovalAnswer {
    ApprovalAnswer::Approve { scope }
}

fn deny(message: Option<&str>) -> ApprovalAnswer {
    ApprovalAnswer::Deny {
        message: message.map(Into::into),
    }
}

#[test]
fn each_key_sends_its_answer_and_the_next_call_shows() {
    let cases = [
        (KeyCode::Char('y'), approve(GrantScope::Once)),
        (KeyCode::Enter, approve(GrantScope::Once)),
        (KeyCode::Char('s'), approve(GrantScope::Session)),
        (KeyCode::Char('a'), approve(GrantScope::Always)),
        (KeyCode::Char('n'), deny(None)),
        (KeyCode::Esc, deny(None)),
    ];
    let ids = ["r0", "r1", "r2", "r3", "r4", "r5"];
    let mut app = waiting(&ids);
    assert_eq!(top_modal(&app), Some(ModalKind::Approval));
    for ((code, answer), id) in cases.into_iter().zip(ids) {
        assert_eq!(
            app.view.modals.approval.as_ref().unwrap().request_id,
            id,
            "the oldest waiting call shows"
        );
        assert_eq!(app.on_key(key(code)), sent(id, answer), "{code:?}");
    }
    assert_eq!(top_modal(&app), None, "nothing waits");
    assert!(app.state.approvals.pending.is_empty());
}

#[test]
fn m_opens_a_message_field_that_enter_sends_and_esc_leaves() {
    let mut app = waiting(&["r1"]);
    assert!(app.on_key(key(KeyCode::Char('m'))).is_empty());
    type_text(&mut app, "nope");
    assert!(app.on_key(key(KeyCode::Esc)).is_empty(), "Esc: back");
    assert_eq!(top_modal(&app), Some(ModalKind::Approval));
    assert_eq!(app.view.modals.approval.as_ref().unwrap().message, None);
    app.on_key(key(KeyCode::Char('m')));
    type_text(&mut app, "use yarn, not npm!");
    app.on_key(key(KeyCode::Backspace));
    app.on_paste(" thanks\n");
    assert_eq!(
        app.on_key(key(KeyCode::Enter)),
        sent("r1", deny(Some("use yarn, not npm thanks")))
    );
    assert_eq!(top_modal(&app), None);
}

#[test]
fn an_answered_call_leaves_the_queue_and_its_decision_is_listed() {
    let mut app = waiting(&["r1", "r2"]);
    app.on_key(key(KeyCode::Char('y')));
    assert_eq!(app.state.approvals.pending.len(), 1, "r2 waits");
    app.on_event(&event(5, Some("a"), decided_msg(decided(Some("r1")))));
    assert_eq!(
        app.view.modals.approval.as_ref().unwrap().request_id,
        "r2",
        "r1's decision closes nothing"
    );
    assert_eq!(app.view.notice, None);
    assert_eq!(app.state.approvals.decided.len(), 1);
}

#[test]
fn a_call_decided_elsewhere_closes_its_view_and_says_why() {
    let mut app = waiting(&["r1", "r2"]);
    let timed_out = ApprovalRecord {
        verdict: Verdict::Deny,
        decider: Decider::Timeout,
        ..decided(Some("r1"))
    };
    app.on_event(&event(5, Some("a"), decided_msg(timed_out)));
    assert_eq!(
        app.view.notice.as_deref(),
        Some("nobody answered in time: the call was denied")
    );
    assert_eq!(app.view.modals.approval.as_ref().unwrap().request_id, "r2");
    app.on_event(&event(6, Some("a"), decided_msg(decided(Some("r2")))));
    assert_eq!(
        app.view.notice.as_deref(),
        Some("the call was answered elsewhere")
    );
    assert_eq!(top_modal(&app), None);
}

#[test]
fn the_turn_ending_closes_the_view() {
    let mut app = waiting(&["r1"]);
    finish_turn(&mut app, 9, 1_000);
    assert_eq!(top_modal(&app), None);
    assert!(app.state.approvals.pending.is_empty());
}

#[test]
fn other_keys_scroll_or_do_nothing_and_ctrl_c_still_cancels() {
    let mut app = waiting(&["r1"]);
    app.view.modals.scroll_max.set(5);
    for code in [KeyCode::Down, KeyCode::PageDown, KeyCode::Char('x')] {
        assert!(app.on_key(key(code)).is_empty(), "{code:?}");
    }
    assert_eq!(app.view.modals.top_mut().unwrap().scroll, 5);
    app.on_key(key(KeyCode::Up));
    assert_eq!(app.view.modals.top_mut().unwrap().scroll, 4);
    assert!(
        app.on_key(key(KeyCode::BackTab)).is_empty(),
        "the mode stays"
    );
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(app.on_key(ctrl_c), [Effect::Send(Op::Cancel)]);
}

#[test]
fn a_replay_opens_no_approval_view() {
    let mut app = App::new(agents());
    app.on_event(&event(
        1,
        None,
        EventMsg::ReplayStarted {
            source: "run".into(),
            speed: 1.0,
            step: false,
        },
    ));
    start_turn(&mut app);
    app.on_event(&event(2, Some("a"), asked(command_request("r1", "ls"))));
    assert_eq!(top_modal(&app), None);
}

#[test]
fn slash_approvals_opens_the_decisions() {
    let mut app = App::new(agents());
    type_text(&mut app, "/approvals");
    app.on_key(key(KeyCode::Enter));
    assert_eq!(top_modal(&app), Some(ModalKind::Approvals));
}
