//! Agents' questions to the user: the modal opens on top of anything when one waits (never
//! in a replay), one at a time in the order asked; its keys fill the form; submitting or
//! skipping sends `AnswerQuestion`; a question closed by the runtime closes its modal.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::protocol::{Event, EventMsg, Op};
use crate::tui::question::QuestionForm;
use crate::tui::view::ModalKind;

impl App {
    /// After each event: close the modal of a question that no longer waits (saying it
    /// timed out or was closed), and open the next waiting one.
    pub(super) fn sync_question(&mut self, event: &Event) {
        let waiting = &self.state.planning.questions;
        self.answered
            .retain(|id| waiting.iter().any(|pending| &pending.request_id == id));
        if let Some(form) = &self.view.modals.question {
            if waiting
                .iter()
                .any(|pending| pending.request_id == form.request_id)
            {
                return;
            }
            let timed_out = matches!(
                &event.msg,
                EventMsg::BroadcastClosed { request_id, timed_out: true, .. }
                    if *request_id == form.request_id
            );
            self.close_question();
            // Closed under the user: the turn ended, or it was answered elsewhere.
            self.view.notice = Some(if timed_out {
                "the question timed out".into()
            } else {
                "the question was closed".into()
            });
        }
        self.open_next_question();
    }

    fn open_next_question(&mut self) {
        if self.is_replay() || self.view.modals.question.is_some() {
            return;
        }
        let next = self
            .state
            .planning
            .questions
            .iter()
            .find(|pending| !self.answered.contains(&pending.request_id));
        if let Some(pending) = next {
            self.view.modals.question = Some(QuestionForm::new(pending));
            self.open(ModalKind::Question);
        }
    }

    fn close_question(&mut self) {
        self.view.modals.question = None;
        self.view
            .modals
            .stack
            .retain(|modal| modal.kind != ModalKind::Question);
    }

    /// Keys of the open question: ↑↓ move, Space chooses, typing fills the text field,
    /// Tab or Enter go on (and send after the last question; Enter chooses the highlighted
    /// option of a single-select question with nothing chosen), a required question left
    /// unanswered stays with a hint, Esc skips the request.
    pub(super) fn question_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(form) = self.view.modals.question.as_mut() else {
            self.close_question();
            return Vec::new();
        };
        let Some(pending) = self
            .state
            .planning
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)
        else {
            self.close_question();
            return Vec::new();
        };
        let count = pending.questions.len();
        let Some(question) = pending.questions.get(form.index) else {
            // Nothing was asked: any way out answers nothing.
            return match key.code {
                KeyCode::Enter | KeyCode::Tab | KeyCode::Esc => self.answer(Vec::new()),
                _ => Vec::new(),
            };
        };
        form.missing = false;
        match key.code {
            KeyCode::Up | KeyCode::Down => form.move_cursor(question, key.code == KeyCode::Down),
            KeyCode::Char(ch) => form.type_char(question, ch),
            KeyCode::Backspace => form.backspace(),
            KeyCode::Tab | KeyCode::Enter => {
                if key.code == KeyCode::Enter {
                    form.choose_highlighted(question);
                }
                // A required question is answered before going on; the last one sends.
                let shown = pending.questions.get(..=form.index).unwrap_or_default();
                if let Some(at) = form.unanswered(shown) {
                    if at != form.index {
                        form.index = at;
                        form.cursor = 0;
                    }
                    form.missing = true;
                } else if !form.next(count) {
                    let replies = form.replies(&pending.questions);
                    return self.answer(replies);
                }
            }
            KeyCode::Esc => return self.answer(Vec::new()),
            _ => {}
        }
        Vec::new()
    }

    /// Pasted text goes to the open question's text field, on one line.
    pub(super) fn question_paste(&mut self, text: &str) {
        let Some(form) = self.view.modals.question.as_mut() else {
            return;
        };
        let question = self
            .state
            .planning
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)
            .and_then(|pending| pending.questions.get(form.index));
        if let Some(question) = question {
            form.cursor = question.options.len();
            for ch in text.chars() {
                form.type_char(question, if ch.is_whitespace() { ' ' } else { ch });
            }
        }
    }

    /// Shift+Tab in the question modal: the previous question.
    pub(super) fn question_back(&mut self) {
        if let Some(form) = self.view.modals.question.as_mut() {
            form.missing = false;
            form.previous();
        }
    }

    /// Sends the replies (none: skipped), closes the modal and opens the next question.
    fn answer(&mut self, replies: Vec<crate::protocol::QuestionReply>) -> Vec<Effect> {
        let Some(form) = self.view.modals.question.take() else {
            return Vec::new();
        };
        self.close_question();
        self.answered.push(form.request_id.clone());
        self.open_next_question();
        vec![Effect::Send(Op::AnswerQuestion {
            request_id: form.request_id,
            replies,
        })]
    }
}
