//! Unit tests of the question board.

use std::time::Duration;

use super::*;
use crate::protocol::QuestionOption;

fn question(text: &str, options: &[(&str, &str)]) -> Question {
    Question {
        text: text.into(),
        options: options
            .iter()
            .map(|(id, label)| QuestionOption {
                id: (*id).into(),
                label: (*label).into(),
                description: String::new(),
            })
            .collect(),
        multi_select: false,
        required: true,
    }
}

fn agent(name: &str) -> AgentId {
    AgentId::new(name)
}

#[test]
fn a_question_to_agents_completes_when_every_peer_replied() {
    let mut board = Board::default();
    let now = Instant::now();
    let id = board.open(
        &agent("a"),
        BroadcastTarget::Agents,
        vec![question("Which?", &[])],
        vec![Some(agent("b")), Some(agent("c"))],
        now + Duration::from_secs(5),
    );
    let reply = |from: &str| Reply {
        from: Some(agent(from)),
        from_anon: None,
        content: json!("x"),
    };
    assert_eq!(
        board.reply(&id, reply("b")).map(|request| request.status),
        Some(Status::Pending)
    );
    assert!(board.reply(&id, reply("b")).is_none(), "b replied already");
    let done = board.reply(&id, reply("c")).unwrap();
    assert_eq!(done.status, Status::Complete);
    assert_eq!(done.result()["responses"].as_array().unwrap().len(), 2);
    assert_eq!(board.next_deadline(), None);
    assert_eq!(board.asked_by(&agent("a")), 1);
}

#[test]
fn the_user_answers_declines_or_lets_it_time_out() {
    let mut board = Board::default();
    let now = Instant::now();
    let questions = vec![question("Format?", &[("md", "Markdown"), ("pdf", "PDF")])];
    let id = board.open(
        &agent("a"),
        BroadcastTarget::Human,
        questions.clone(),
        vec![None],
        now + Duration::from_secs(5),
    );
    let replies = [QuestionReply {
        selected: vec!["pdf".into()],
        text: "and short".into(),
    }];
    let done = board.human_reply(&id, &replies).unwrap();
    assert_eq!(done.status, Status::Complete);
    assert_eq!(
        done.result()["responses"][0]["content"],
        json!([{"questionIndex": 0, "selectedOptions": ["pdf"], "otherText": "and short"}])
    );
    assert_eq!(
        board.human_history(),
        [("Format?".to_string(), "PDF, and short".to_string())]
    );

    let declined = board.open(
        &agent("b"),
        BroadcastTarget::Human,
        questions.clone(),
        vec![None],
        now,
    );
    let result = board.human_reply(&declined, &[]).unwrap().result();
    assert_eq!(result["status"], "declined");
    assert!(result["note"].as_str().unwrap().contains("not to answer"));

    let late = board.open(
        &agent("c"),
        BroadcastTarget::Human,
        questions,
        vec![None],
        now + Duration::from_secs(1),
    );
    assert_eq!(board.next_deadline(), Some(now + Duration::from_secs(1)));
    assert!(board.expire(now).is_empty());
    assert_eq!(
        board.expire(now + Duration::from_secs(2)),
        vec![late.clone()]
    );
    assert_eq!(board.get(&late).unwrap().result()["status"], "timeout");
    assert!(board.human_reply(&late, &replies).is_none(), "too late");
}

#[test]
fn one_free_text_question_is_answered_with_plain_text() {
    let questions = [question("Name?", &[])];
    let replies = [QuestionReply {
        selected: Vec::new(),
        text: " Ada ".into(),
    }];
    assert_eq!(human_content(&questions, &replies), json!("Ada"));
    assert_eq!(human_summary(&questions, &replies), "Ada");
}

#[test]
fn a_question_with_nobody_to_ask_is_complete_at_once_and_never_expires() {
    let mut board = Board::default();
    let now = Instant::now();
    let id = board.open(
        &agent("a"),
        BroadcastTarget::Agents,
        vec![question("Anyone?", &[])],
        Vec::new(),
        now,
    );
    assert_eq!(board.get(&id).unwrap().result()["status"], "complete");
    assert!(board.expire(now + Duration::from_secs(9)).is_empty());
    assert_eq!(board.next_deadline(), None);
}
