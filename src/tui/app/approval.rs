//! Tool calls waiting for approval: the approval view opens on top of anything while one
//! waits (never in a replay), the oldest first; its keys approve (once, for the session,
//! always), deny, or deny with a message, each sending `AnswerApproval` and showing the
//! next waiting call; a call decided elsewhere (the file handshake, a timeout, the turn's
//! end) closes its view.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::protocol::{ApprovalAnswer, ApprovalEvent, Decider, Event, EventMsg, Op};
use crate::tui::approval::{ApprovalForm, answer_for};
use crate::tui::view::ModalKind;

/// Lines PgUp and PgDn scroll the call by.
const PAGE: usize = 10;

impl App {
    /// After each event: close the view of a call that no longer waits (saying why), and
    /// open the next waiting one.
    pub(super) fn sync_approval(&mut self, event: &Event) {
        if let Some(form) = &self.view.modals.approval {
            let waiting = self
                .state
                .approvals
                .pending
                .iter()
                .any(|pending| pending.request.request_id == form.request_id);
            if waiting {
                return;
            }
            let decided = match &event.msg {
                EventMsg::Approval(ApprovalEvent::Decided(record))
                    if record.request_id.as_ref() == Some(&form.request_id) =>
                {
                    Some(record.decider)
                }
                _ => None,
            };
            self.close_approval();
            self.view.notice = Some(match decided {
                Some(Decider::Timeout) => "nobody answered in time: the call was denied".into(),
                Some(_) => "the call was answered elsewhere".into(),
                None => "the call no longer waits for an answer".into(),
            });
        }
        self.open_next_approval();
    }

    fn open_next_approval(&mut self) {
        if self.is_replay() || self.view.modals.approval.is_some() {
            return;
        }
        if let Some(first) = self.state.approvals.first() {
            self.view.modals.approval = Some(ApprovalForm::new(&first.request.request_id));
            self.open(ModalKind::Approval);
        }
    }

    fn close_approval(&mut self) {
        self.view.modals.approval = None;
        self.view
            .modals
            .stack
            .retain(|modal| modal.kind != ModalKind::Approval);
    }

    /// Keys of the approval view: the answers (`y`/Enter, `s`, `a`, `n`/Esc), `m` for a
    /// denial with a message (typed on one line; Enter sends it, Esc goes back), and ↑↓
    /// PgUp PgDn Home to scroll the call.
    pub(super) fn approval_view_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let max_scroll = self.view.modals.scroll_max.get();
        let Some(form) = self.view.modals.approval.as_mut() else {
            self.close_approval();
            return Vec::new();
        };
        if form.message.is_some() {
            match key.code {
                KeyCode::Enter => {
                    let answer = form.denial();
                    return self.answer_approval(answer);
                }
                KeyCode::Esc => form.drop_message(),
                KeyCode::Backspace => form.backspace(),
                KeyCode::Char(ch) => form.type_char(ch),
                _ => {}
            }
            return Vec::new();
        }
        if key.code == KeyCode::Char('m') {
            form.start_message();
            return Vec::new();
        }
        if let Some(answer) = answer_for(key.code) {
            return self.answer_approval(answer);
        }
        if let Some(top) = self.view.modals.top_mut() {
            top.scroll = match key.code {
                KeyCode::Down => (top.scroll + 1).min(max_scroll),
                KeyCode::Up => top.scroll.saturating_sub(1),
                KeyCode::PageDown => (top.scroll + PAGE).min(max_scroll),
                KeyCode::PageUp => top.scroll.saturating_sub(PAGE),
                KeyCode::Home => 0,
                KeyCode::End => max_scroll,
                _ => top.scroll,
            };
        }
        Vec::new()
    }

    /// Pasted text goes to the open message field, on one line.
    pub(super) fn approval_paste(&mut self, text: &str) {
        if let Some(form) = self.view.modals.approval.as_mut() {
            text.chars().for_each(|ch| form.type_char(ch));
        }
    }

    /// Sends the answer to the shown call, which leaves the queue; the next one shows.
    fn answer_approval(&mut self, answer: ApprovalAnswer) -> Vec<Effect> {
        let Some(form) = self.view.modals.approval.take() else {
            return Vec::new();
        };
        self.close_approval();
        self.state.approvals.answered(&form.request_id);
        self.open_next_approval();
        vec![Effect::Send(Op::AnswerApproval {
            request_id: form.request_id,
            answer,
        })]
    }
}
