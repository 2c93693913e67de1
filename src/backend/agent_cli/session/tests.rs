//! The resume rule over the prompts a turn's rounds send.

use std::sync::Arc;

use super::{HISTORY_CLOSE, HISTORY_OPEN, LastSession, opening};
use crate::backend::Message;

fn round(history: &[(&str, &str)], question: &str) -> Vec<Message> {
    let mut user = String::new();
    if !history.is_empty() {
        user.push_str(HISTORY_OPEN);
        for (asked, answered) in history {
            user.push_str(&format!("User: {asked}\nAssistant: {answered}\n"));
        }
        user.push_str(HISTORY_CLOSE);
    }
    user.push_str(&format!(
        "<ORIGINAL MESSAGE> {question} <END OF ORIGINAL MESSAGE>"
    ));
    vec![Message::system("coordinate"), Message::user(user)]
}

fn after(id: &str, messages: &[Message]) -> LastSession {
    LastSession {
        id: Some(id.into()),
        messages: Some(Arc::new(messages.to_vec())),
    }
}

#[test]
fn the_first_start_is_fresh_with_the_whole_prompt() {
    let opened = opening(&LastSession::default(), &round(&[], "What is 2+2?"));
    assert_eq!(opened.resume, None);
    assert_eq!(opened.system_prompt, "coordinate");
    assert!(opened.prompt.contains("What is 2+2?"));
}

#[test]
fn a_retry_resumes_with_only_the_nudge() {
    let first = round(&[], "What is 2+2?");
    let mut retry = first.clone();
    retry.push(Message::assistant("4", Vec::new()));
    retry.push(Message::user("Call `vote` or `new_answer`."));
    let opened = opening(&after("s1", &first), &retry);
    assert_eq!(opened.resume.as_deref(), Some("s1"));
    assert_eq!(opened.prompt, "Call `vote` or `new_answer`.");
}

#[test]
fn a_restart_in_the_same_turn_starts_fresh() {
    let first = round(&[], "What is 2+2?");
    let mut restarted = round(&[], "What is 2+2?");
    restarted[1] = Message::user("<ORIGINAL MESSAGE> What is 2+2? <CURRENT ANSWERS> 4");
    let opened = opening(&after("s1", &first), &restarted);
    assert_eq!(opened.resume, None);
    assert!(opened.prompt.contains("<CURRENT ANSWERS> 4"));
}

#[test]
fn a_new_turn_resumes_without_resending_the_history() {
    let turn_one = round(&[], "What is 2+2?");
    let turn_two = round(&[("What is 2+2?", "4")], "And times 3?");
    let opened = opening(&after("s1", &turn_one), &turn_two);
    assert_eq!(opened.resume.as_deref(), Some("s1"));
    assert!(!opened.prompt.contains("What is 2+2?"), "{}", opened.prompt);
    assert!(opened.prompt.contains("And times 3?"));
    // A restart within turn two has the same history: a fresh session, told everything.
    let restarted = opening(&after("s2", &turn_two), &turn_two);
    assert_eq!(restarted.resume, None);
    assert!(restarted.prompt.contains("What is 2+2?"));
}

#[test]
fn without_a_session_id_nothing_is_resumed() {
    let turn_one = round(&[], "What is 2+2?");
    let last = LastSession {
        id: None,
        messages: Some(Arc::new(turn_one)),
    };
    let opened = opening(&last, &round(&[("What is 2+2?", "4")], "And times 3?"));
    assert_eq!(opened.resume, None);
    assert!(opened.prompt.contains("What is 2+2?"));
}

#[test]
fn attached_files_are_named_by_path_for_the_cli_to_read() {
    let dir = tempfile::tempdir().unwrap();
    let photo = dir.path().join("photo.png");
    std::fs::write(&photo, b"\x89PNG\r\n\x1a\npixels").unwrap();
    let attachment = crate::protocol::Attachment::read(&photo).unwrap().unwrap();
    let messages = [
        Message::system("sys"),
        Message::user_with("What is shown?", vec![attachment]),
    ];
    let prompt = opening(&LastSession::default(), &messages).prompt;
    assert_eq!(
        prompt,
        format!(
            "What is shown?\n\nFiles attached to this message (open them from these paths or URLs):\n\
             - {} (image/png)",
            photo.display()
        )
    );
}
