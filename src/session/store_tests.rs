//! The session store over real demo turns: a completed turn and a cancelled one.

use super::*;
use crate::protocol::{Event, EventMsg, TurnOutcome};
use crate::tui::test_support::demo_turns;

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_completed_turn_keeps_its_answer_and_metadata_and_the_summary_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::create(dir.path()).unwrap();
    assert!(store.id().starts_with("session_"));
    let events = demo_turns(&["What is the capital of France?", "And Germany?"]).await;
    store.record_turn(1, &events, None, None).unwrap();
    store.record_turn(2, &events, None, None).unwrap();
    let turn = store.dir().join("turn_1");
    let metadata = read_json(&turn.join("metadata.json"));
    assert_eq!(metadata["turn"], 1);
    assert_eq!(metadata["task"], "What is the capital of France?");
    assert_eq!(metadata["winning_agent"], "scholar");
    assert_eq!(metadata["winning_model"], "scripted/scripted-deep");
    assert_eq!(metadata["session_id"], store.id());
    assert_eq!(metadata["status"], "complete");
    let final_answer = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::FinalPresentationDone { content, .. } if event.turn == 1 => {
                Some(content.clone())
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(turn.join("answer.txt")).unwrap(),
        final_answer
    );
    assert!(!turn.join("partial_answers.json").exists());
    let summary = std::fs::read_to_string(store.dir().join("SESSION_SUMMARY.txt")).unwrap();
    assert!(summary.contains("\n2 turns\n"), "{summary}");
    assert!(summary.contains("Task: And Germany?"), "{summary}");
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_turn_is_incomplete_and_keeps_every_partial_answer() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::create(dir.path()).unwrap();
    let events = demo_turns(&["q"]).await;
    let mut cut: Vec<Event> = Vec::new();
    for event in events {
        let answered = matches!(event.msg, EventMsg::AnswerSubmitted { .. });
        cut.push(event);
        if answered
            && cut
                .iter()
                .filter(|e| matches!(e.msg, EventMsg::AnswerSubmitted { .. }))
                .count()
                == 2
        {
            break;
        }
    }
    let last = cut.last().unwrap().clone();
    cut.push(Event {
        seq: last.seq + 1,
        msg: EventMsg::TurnFinished {
            outcome: TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 10,
        },
        agent: None,
        ..last
    });
    store.record_turn(1, &cut, None, None).unwrap();
    let turn = store.dir().join("turn_1");
    let metadata = read_json(&turn.join("metadata.json"));
    assert_eq!(metadata["status"], "incomplete");
    assert_eq!(metadata["phase"], "coordination");
    assert_eq!(metadata["voting_complete"], false);
    assert!(!turn.join("answer.txt").exists());
    let partial = read_json(&turn.join("partial_answers.json"));
    assert_eq!(partial.as_object().unwrap().len(), 2, "{partial}");
}

#[tokio::test(start_paused = true)]
async fn a_turn_cut_short_by_a_kill_is_recovered_from_its_event_log() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::create(dir.path()).unwrap();
    let log_dir = dir.path().join("log/turn_1/attempt_1");
    let events = demo_turns(&["q"]).await;
    let mut log = crate::session::TurnLog::open(log_dir.clone()).unwrap();
    // The process died after the first answer: that is all the log holds.
    for event in &events {
        log.append(event).unwrap();
        if matches!(event.msg, EventMsg::AnswerSubmitted { .. }) {
            break;
        }
    }
    drop(log);
    store.begin_turn(1, "q", Some(&log_dir)).unwrap();
    let mut sessions = crate::session::list_sessions(dir.path()).unwrap();
    sessions[0].read_answers().unwrap();
    let turn = &sessions[0].turns[0];
    assert_eq!(turn.status, "incomplete");
    assert!(
        turn.answer.starts_with("[This turn was cancelled"),
        "{}",
        turn.answer
    );
    assert!(turn.answer.contains("- scout: "), "{}", turn.answer);
    assert_eq!(sessions[0].next_turn(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_completed_turn_whose_event_log_stopped_early_is_recorded_complete() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::create(dir.path()).unwrap();
    let events = demo_turns(&["q"]).await;
    // The disk filled up after the first answer: the log holds nothing later.
    let cut: Vec<Event> = events
        .iter()
        .take_while(|event| !matches!(event.msg, EventMsg::VoteCast { .. }))
        .cloned()
        .collect();
    let ending = TurnEnding {
        task: "q".to_string(),
        outcome: TurnOutcome::Completed,
        winner: Some("scholar".to_string()),
        answer: Some("the answer already shown".to_string()),
    };
    store.record_turn(1, &cut, None, Some(&ending)).unwrap();
    let turn = store.dir().join("turn_1");
    let metadata = read_json(&turn.join("metadata.json"));
    assert_eq!(metadata["status"], "complete");
    assert_eq!(metadata["winning_agent"], "scholar");
    assert_eq!(
        std::fs::read_to_string(turn.join("answer.txt")).unwrap(),
        "the answer already shown"
    );
    assert!(!turn.join("partial_answers.json").exists());
}

#[test]
fn a_session_massgen_wrote_reads_as_massgen_marks_it() {
    // MassGen's own turn files: a completed turn's metadata has no status, a cancelled
    // one says "incomplete" and keeps its partial answers.
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("sessions/session_20260102_030405");
    let done = session.join("turn_1");
    std::fs::create_dir_all(&done).unwrap();
    std::fs::write(
        done.join("metadata.json"),
        r#"{"turn": 1, "timestamp": "2026-01-02T03:04:05", "winning_agent": "a", "task": "q1", "session_id": "session_20260102_030405"}"#,
    )
    .unwrap();
    std::fs::write(done.join("answer.txt"), "Paris.").unwrap();
    let cut = session.join("turn_2");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(
        cut.join("metadata.json"),
        r#"{"turn": 2, "winning_agent": null, "task": "q2", "status": "incomplete", "phase": "coordination", "voting_complete": false}"#,
    )
    .unwrap();
    std::fs::write(cut.join("partial_answers.json"), r#"{"a": "Rome?"}"#).unwrap();
    let mut sessions = crate::session::list_sessions(dir.path()).unwrap();
    assert!(
        sessions[0].turns[0].answer.is_empty(),
        "answers are read only on demand"
    );
    sessions[0].read_answers().unwrap();
    let turns = &sessions[0].turns;
    assert_eq!(
        (turns[0].status.as_str(), turns[0].answer.as_str()),
        ("complete", "Paris.")
    );
    assert_eq!(turns[1].status, "incomplete");
    assert!(
        turns[1].answer.contains("- a: Rome?"),
        "{}",
        turns[1].answer
    );
    assert_eq!(sessions[0].next_turn(), 3);
}

#[test]
fn listing_sessions_reads_a_bounded_amount_of_turn_records_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("sessions/session_20260102_030405");
    let fifteen = 15 * crate::bounded_file::MIB;
    for turn in 1..=5 {
        let turn = session.join(format!("turn_{turn}"));
        std::fs::create_dir_all(&turn).unwrap();
        let metadata = std::fs::File::create(turn.join("metadata.json")).unwrap();
        metadata.set_len(fifteen).unwrap();
    }
    let sessions = crate::session::list_sessions(dir.path()).unwrap();
    let unreadable = &sessions[0].unreadable;
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert!(
        unreadable[0].contains("more than 64 MiB in all"),
        "{unreadable:?}"
    );
}
