//! The form of the open approval view: which waiting call it shows and, while the user
//! types why a call is denied, the message so far; and the answers its keys make.

use crate::protocol::{ApprovalAnswer, GrantScope};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalForm {
    pub request_id: String,
    /// The one-line "deny with a message" field, while it is open.
    pub message: Option<String>,
}

impl ApprovalForm {
    pub fn new(request_id: &str) -> Self {
        Self {
            request_id: request_id.to_string(),
            message: None,
        }
    }

    /// `m`: the message field opens (empty).
    pub fn start_message(&mut self) {
        self.message = Some(String::new());
    }

    /// Esc in the message field: back to the keys, the message dropped.
    pub fn drop_message(&mut self) {
        self.message = None;
    }

    /// A typed or pasted character, on one line (a line break counts as a space).
    pub fn type_char(&mut self, ch: char) {
        if let Some(message) = self.message.as_mut() {
            message.push(if ch.is_whitespace() { ' ' } else { ch });
        }
    }

    pub fn backspace(&mut self) {
        if let Some(message) = self.message.as_mut() {
            message.pop();
        }
    }

    /// Enter in the message field: a denial with the message (none when nothing but
    /// spaces was typed).
    pub fn denial(&self) -> ApprovalAnswer {
        let message = self
            .message
            .as_deref()
            .map(str::trim)
            .filter(|message| !message.is_empty())
            .map(str::to_string);
        ApprovalAnswer::Deny { message }
    }
}

/// The answer a key gives outside the message field: `y`/Enter once, `s` this session,
/// `a` always, `n`/Esc deny.
pub fn answer_for(key: crossterm::event::KeyCode) -> Option<ApprovalAnswer> {
    use crossterm::event::KeyCode;
    let approve = |scope| Some(ApprovalAnswer::Approve { scope });
    match key {
        KeyCode::Char('y' | 'Y') | KeyCode::Enter => approve(GrantScope::Once),
        KeyCode::Char('s' | 'S') => approve(GrantScope::Session),
        KeyCode::Char('a' | 'A') => approve(GrantScope::Always),
        KeyCode::Char('n' | 'N') | KeyCode::Esc => Some(ApprovalAnswer::Deny { message: None }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyCode;

    #[test]
    fn the_message_is_one_trimmed_line_and_an_empty_one_is_none() {
        let mut form = ApprovalForm::new("r1");
        form.type_char('x');
        assert_eq!(form.message, None, "typing needs the field open");
        form.start_message();
        for ch in " not\nnow!".chars() {
            form.type_char(ch);
        }
        form.backspace();
        assert_eq!(
            form.denial(),
            ApprovalAnswer::Deny {
                message: Some("not now".into())
            }
        );
        form.drop_message();
        form.start_message();
        form.type_char(' ');
        assert_eq!(form.denial(), ApprovalAnswer::Deny { message: None });
    }

    #[test]
    fn each_answer_key_gives_its_answer() {
        let approve = |scope| Some(ApprovalAnswer::Approve { scope });
        assert_eq!(answer_for(KeyCode::Char('y')), approve(GrantScope::Once));
        assert_eq!(answer_for(KeyCode::Enter), approve(GrantScope::Once));
        assert_eq!(answer_for(KeyCode::Char('s')), approve(GrantScope::Session));
        assert_eq!(answer_for(KeyCode::Char('a')), approve(GrantScope::Always));
        let deny = Some(ApprovalAnswer::Deny { message: None });
        assert_eq!(answer_for(KeyCode::Char('n')), deny);
        assert_eq!(answer_for(KeyCode::Esc), deny);
        assert_eq!(answer_for(KeyCode::Char('m')), None);
        assert_eq!(answer_for(KeyCode::Down), None);
    }
}
