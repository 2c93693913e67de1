//! The form of an open question modal: which of the request's questions is shown, where
//! the cursor is (an option, or the text field below them), what the user chose and typed
//! for each question so far, and whether a required question was left unanswered; and the
//! replies it makes.

use crate::protocol::{Question, QuestionReply};
use crate::tui::state::PendingQuestion;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionForm {
    pub request_id: String,
    /// The question shown, an index into the request's questions.
    pub index: usize,
    /// The row with the cursor: an option, or `options.len()` for the text field.
    pub cursor: usize,
    pub answers: Vec<Answer>,
    /// Going on was refused: the shown question is required and has no answer yet.
    pub missing: bool,
}

/// What the user gave for one question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Per option, whether it is chosen.
    pub chosen: Vec<bool>,
    pub text: String,
}

impl QuestionForm {
    pub fn new(pending: &PendingQuestion) -> Self {
        let answers = pending
            .questions
            .iter()
            .map(|question| Answer {
                chosen: vec![false; question.options.len()],
                text: String::new(),
            })
            .collect();
        Self {
            request_id: pending.request_id.clone(),
            index: 0,
            cursor: 0,
            answers,
            missing: false,
        }
    }

    /// The shown question's answer (a default one if the request changed under the form).
    fn answer_mut(&mut self) -> Option<&mut Answer> {
        self.answers.get_mut(self.index)
    }

    /// ↑ or ↓ through the options and the text field.
    pub fn move_cursor(&mut self, question: &Question, down: bool) {
        let last = question.options.len();
        self.cursor = if down {
            (self.cursor + 1).min(last)
        } else {
            self.cursor.saturating_sub(1)
        };
    }

    /// Space on an option: one choice for a single-select question, a toggle for a
    /// multi-select one.
    pub fn toggle(&mut self, question: &Question) {
        let cursor = self.cursor;
        let multi = question.multi_select;
        let Some(answer) = self.answer_mut() else {
            return;
        };
        let was = answer.chosen.get(cursor).copied().unwrap_or(false);
        if !multi {
            answer.chosen.iter_mut().for_each(|chosen| *chosen = false);
        }
        if let Some(chosen) = answer.chosen.get_mut(cursor) {
            *chosen = !was || !multi;
        }
    }

    /// A typed character: Space on an option chooses it; anything else goes to the text
    /// field, which takes the cursor.
    pub fn type_char(&mut self, question: &Question, ch: char) {
        let on_option = self.cursor < question.options.len();
        if on_option && ch == ' ' {
            self.toggle(question);
            return;
        }
        self.cursor = question.options.len();
        if let Some(answer) = self.answer_mut() {
            answer.text.push(ch);
        }
    }

    /// Enter on an option of a single-select question with nothing chosen chooses it.
    pub fn choose_highlighted(&mut self, question: &Question) {
        let cursor = self.cursor;
        if question.multi_select || cursor >= question.options.len() {
            return;
        }
        if let Some(answer) = self.answer_mut()
            && !answer.chosen.contains(&true)
            && let Some(chosen) = answer.chosen.get_mut(cursor)
        {
            *chosen = true;
        }
    }

    /// The first required question with no option chosen and nothing typed.
    pub fn unanswered(&self, questions: &[Question]) -> Option<usize> {
        questions.iter().enumerate().position(|(at, question)| {
            let answered = self.answers.get(at).is_some_and(|answer| {
                answer.chosen.contains(&true) || !answer.text.trim().is_empty()
            });
            question.required && !answered
        })
    }

    pub fn backspace(&mut self) {
        if let Some(answer) = self.answer_mut() {
            answer.text.pop();
        }
    }

    /// On to the next of `count` questions; `false` on the last one (time to submit).
    pub fn next(&mut self, count: usize) -> bool {
        if self.index + 1 >= count {
            return false;
        }
        self.index += 1;
        self.cursor = 0;
        true
    }

    pub fn previous(&mut self) {
        if self.index > 0 {
            self.index -= 1;
            self.cursor = 0;
        }
    }

    /// One reply per question: the chosen option ids and the text typed.
    pub fn replies(&self, questions: &[Question]) -> Vec<QuestionReply> {
        questions
            .iter()
            .zip(&self.answers)
            .map(|(question, answer)| QuestionReply {
                selected: question
                    .options
                    .iter()
                    .zip(&answer.chosen)
                    .filter(|(_, chosen)| **chosen)
                    .map(|(option, _)| option.id.clone())
                    .collect(),
                text: answer.text.trim().to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::QuestionOption;

    fn question(multi_select: bool) -> Question {
        Question {
            text: "Which?".into(),
            options: ["x", "y", "z"]
                .map(|id| QuestionOption {
                    id: id.into(),
                    label: id.to_uppercase(),
                    description: String::new(),
                })
                .to_vec(),
            multi_select,
            required: true,
        }
    }

    fn form(questions: Vec<Question>) -> QuestionForm {
        QuestionForm::new(&PendingQuestion {
            request_id: "r".into(),
            asker: None,
            questions,
            timeout_secs: 300,
            asked_at: jiff::Timestamp::UNIX_EPOCH,
        })
    }

    #[test]
    fn single_select_keeps_one_choice_and_multi_select_toggles() {
        let single = question(false);
        let mut form = form(vec![single.clone(), question(true)]);
        form.type_char(&single, ' ');
        form.move_cursor(&single, true);
        form.type_char(&single, ' ');
        assert_eq!(form.answers[0].chosen, [false, true, false]);
        form.type_char(&single, ' ');
        assert_eq!(form.answers[0].chosen, [false, true, false], "still one");
        assert!(form.next(2));
        let multi = question(true);
        form.type_char(&multi, ' ');
        form.move_cursor(&multi, true);
        form.move_cursor(&multi, true);
        form.type_char(&multi, ' ');
        form.move_cursor(&multi, false);
        form.move_cursor(&multi, false);
        form.type_char(&multi, ' ');
        assert_eq!(form.answers[1].chosen, [false, false, true]);
        assert!(!form.next(2), "the last question");
    }

    #[test]
    fn enter_chooses_the_highlighted_option_only_when_nothing_is_chosen() {
        let single = question(false);
        let mut form = form(vec![single.clone(), question(true)]);
        assert_eq!(form.unanswered(std::slice::from_ref(&single)), Some(0));
        form.move_cursor(&single, true);
        form.choose_highlighted(&single);
        assert_eq!(form.answers[0].chosen, [false, true, false]);
        form.move_cursor(&single, true);
        form.choose_highlighted(&single);
        assert_eq!(
            form.answers[0].chosen,
            [false, true, false],
            "one was chosen"
        );
        assert_eq!(form.unanswered(&[single, question(true)]), Some(1));
        form.next(2);
        let multi = question(true);
        form.choose_highlighted(&multi);
        assert_eq!(
            form.answers[1].chosen, [false; 3],
            "multi-select: Space only"
        );
        form.type_char(&multi, 'x');
        assert_eq!(form.unanswered(&[question(false), multi]), None);
    }

    #[test]
    fn typing_goes_to_the_text_field_spaces_included() {
        let asked = question(false);
        let mut form = form(vec![asked.clone()]);
        for ch in "ok, fine".chars() {
            form.type_char(&asked, ch);
        }
        form.backspace();
        assert_eq!(form.cursor, 3, "the text field took the cursor");
        assert_eq!(
            form.replies(&[asked]),
            [QuestionReply {
                selected: Vec::new(),
                text: "ok, fin".into()
            }]
        );
    }
}
