use std::io::Write;

use super::*;
use crate::protocol::EventMsg;
use crate::session::event_log::EventLog;

fn event(seq: u64, turn: u32) -> Event {
    Event {
        seq,
        at: jiff::Timestamp::UNIX_EPOCH,
        turn,
        agent: None,
        msg: EventMsg::Warning {
            message: format!("e{seq}"),
        },
    }
}

/// Writes `events` to `dir/events.jsonl`, creating `dir`.
fn write_log(dir: &Path, events: &[Event]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(EVENTS);
    let mut log = EventLog::open(&path).unwrap();
    for event in events {
        log.append(event).unwrap();
    }
    path
}

fn seqs(recording: &Recording) -> Vec<u64> {
    recording.events.iter().map(|event| event.seq).collect()
}

#[test]
fn a_file_and_an_attempt_directory_are_one_log() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_log(&dir.path().join("attempt_1"), &[event(1, 1)]);
    assert_eq!(event_logs(&file).unwrap().files, vec![file.clone()]);
    assert_eq!(
        event_logs(&dir.path().join("attempt_1")).unwrap().files,
        vec![file]
    );
}

#[test]
fn a_run_log_plays_every_turn_in_order_with_every_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("log_20260101_120000_000000");
    let sent_back = write_log(&run.join("turn_2/attempt_1"), &[event(2, 2)]);
    let retried = write_log(&run.join("turn_2/attempt_2"), &[event(3, 2)]);
    let first = write_log(&run.join("turn_1/attempt_1"), &[event(1, 1)]);
    let tenth = write_log(&run.join("turn_10/attempt_1"), &[event(10, 10)]);
    assert_eq!(
        event_logs(&run).unwrap().files,
        vec![first, sent_back.clone(), retried.clone(), tenth]
    );
    assert_eq!(
        event_logs(&run.join("turn_2")).unwrap().files,
        vec![sent_back.clone(), retried.clone()]
    );
    assert_eq!(seqs(&load_recording(&run).unwrap()), vec![1, 2, 3, 10]);

    // A session's turn names its last attempt; the earlier ones play first.
    let session = dir.path().join("sessions/s");
    session_turn(&session, 2, Some(&run.join("turn_2/attempt_2")));
    assert_eq!(
        event_logs(&session).unwrap().files,
        vec![sent_back, retried]
    );
}

/// A session's `turn_N/metadata.json` pointing at `log_dir` (or at nothing).
fn session_turn(session: &Path, turn: u32, log_dir: Option<&Path>) {
    let dir = session.join(format!("turn_{turn}"));
    std::fs::create_dir_all(&dir).unwrap();
    let metadata = serde_json::json!({"turn": turn, "log_dir": log_dir});
    std::fs::write(dir.join("metadata.json"), metadata.to_string()).unwrap();
}

#[test]
fn a_session_follows_each_turns_log_dir_and_notes_the_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("massgen_logs/log_x");
    let session = dir.path().join("sessions/session_x");
    write_log(&logs.join("turn_1/attempt_1"), &[event(1, 1), event(2, 1)]);
    write_log(&logs.join("turn_3/attempt_1"), &[event(5, 3)]);
    session_turn(&session, 1, Some(&logs.join("turn_1/attempt_1")));
    session_turn(&session, 2, Some(&logs.join("turn_2/attempt_1")));
    session_turn(&session, 3, Some(&logs.join("turn_3/attempt_1")));
    session_turn(&session, 4, None);

    let recording = load_recording(&session).unwrap();
    assert_eq!(seqs(&recording), vec![1, 2, 5]);
    assert_eq!(recording.notes.len(), 2, "{:?}", recording.notes);
    assert!(
        recording.notes[0].contains("turn_2"),
        "{:?}",
        recording.notes
    );
    assert!(recording.notes[1].contains("names no event log"));
    assert_eq!(
        seqs(&load_recording(&session.join("turn_3")).unwrap()),
        vec![5]
    );
}

#[test]
fn a_killed_runs_torn_last_line_is_dropped_and_the_rest_plays() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_log(dir.path(), &[event(1, 1), event(2, 1)]);
    let mut torn = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    torn.write_all(br#"{"seq":3,"at":"#).unwrap();
    assert_eq!(seqs(&load_recording(dir.path()).unwrap()), vec![1, 2]);
}

#[test]
fn a_damaged_middle_line_is_an_error_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(EVENTS);
    std::fs::write(&file, "{\"bad\": 1}\n{\"also\": 2}\n").unwrap();
    let error = load_recording(&file).unwrap_err().to_string();
    assert!(error.contains(&format!("{}:1", file.display())), "{error}");
}

#[test]
fn paths_without_events_say_what_to_give() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let error = event_logs(&missing).unwrap_err();
    assert!(matches!(error, ReplayError::NotFound(_)));
    assert!(
        error.to_string().contains("help: give a session"),
        "{error}"
    );

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(matches!(
        event_logs(&empty),
        Err(ReplayError::NoEvents { .. })
    ));

    let blank = dir.path().join("blank");
    write_log(&blank.join("turn_1/attempt_1"), &[]);
    std::fs::create_dir_all(blank.join("turn_2")).unwrap();
    let error = load_recording(&blank).unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, ReplayError::NoEvents { .. }), "{text}");
    assert!(text.contains("note: ") && text.contains("turn_2"), "{text}");
}

#[test]
fn logs_larger_than_a_replay_holds_are_refused_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("log_1");
    let first = write_log(&run.join("turn_1/attempt_1"), &[event(1, 1)]);
    let second = write_log(&run.join("turn_2/attempt_1"), &[event(2, 2)]);
    std::fs::OpenOptions::new()
        .append(true)
        .open(&second)
        .unwrap()
        .set_len(REPLAY_MAX)
        .unwrap();
    let error = load_recording(&run).unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, ReplayError::TooLarge { .. }), "{text}");
    assert!(
        text.contains("more than 64 MiB") && text.contains("turn_2"),
        "{text}"
    );
    assert_eq!(seqs(&load_recording(&first).unwrap()), vec![1]);
}
