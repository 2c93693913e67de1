use std::path::PathBuf;

use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::protocol::AgentId;

const START: Timestamp = Timestamp::UNIX_EPOCH;

/// An event of `turn` recorded `millis` after `START`.
fn at(millis: i64, turn: u32, msg: EventMsg) -> Event {
    Event {
        seq: 1,
        at: START + SignedDuration::from_millis(millis),
        turn,
        agent: Some(AgentId::new("scout")),
        msg,
    }
}

fn text(t: &str) -> EventMsg {
    EventMsg::TextDelta { text: t.into() }
}

fn warning(message: &str) -> EventMsg {
    EventMsg::Warning {
        message: message.into(),
    }
}

fn recording(events: Vec<Event>) -> Recording {
    Recording {
        source: PathBuf::from("recorded"),
        events,
        notes: Vec::new(),
    }
}

fn paced(speed: f64) -> ReplayOptions {
    ReplayOptions { speed, step: false }
}

/// The next event and how long after `since` it arrived.
async fn next(handle: &mut OrchestratorHandle, since: Instant) -> (EventMsg, Duration) {
    let event = handle.events.recv().await.unwrap();
    (event.msg, since.elapsed())
}

#[test]
fn pauses_are_the_recorded_gaps_divided_by_the_speed_and_capped_between_turns() {
    let first = at(0, 1, text("a"));
    assert_eq!(
        pause_between(&first, &at(3_000, 1, text("b")), 2.0),
        Duration::from_millis(1_500)
    );
    assert_eq!(
        pause_between(&first, &at(500, 1, text("b")), 0.5),
        Duration::from_secs(1)
    );
    assert_eq!(
        pause_between(&first, &at(3 * 3_600_000, 2, text("b")), 1.0),
        TURN_GAP_CAP
    );
    assert_eq!(
        pause_between(&at(500, 1, text("a")), &first, 1.0),
        Duration::ZERO,
        "a clock that went back waits nothing"
    );
    assert_eq!(
        pause_between(&first, &at(1_000, 1, text("b")), 1e-300),
        MAX_PAUSE
    );
}

#[tokio::test(start_paused = true)]
async fn events_arrive_at_their_recorded_pace_times_the_speed() {
    let events = vec![
        at(0, 1, text("a")),
        at(2_000, 1, text("b")),
        at(3_000, 1, text("c")),
        at(3_000 + 5 * 3_600_000, 2, text("next turn")),
    ];
    let begun = Instant::now();
    let mut handle = spawn_replay(recording(events), paced(2.0));
    let started = next(&mut handle, begun).await;
    assert!(
        matches!(
            started.0,
            EventMsg::ReplayStarted {
                speed: 2.0,
                step: false,
                ..
            }
        ),
        "{started:?}"
    );
    let arrivals = [
        next(&mut handle, begun).await,
        next(&mut handle, begun).await,
        next(&mut handle, begun).await,
        next(&mut handle, begun).await,
    ];
    let millis: Vec<u128> = arrivals
        .iter()
        .map(|(_, after)| after.as_millis())
        .collect();
    assert_eq!(
        millis,
        vec![0, 1_000, 1_500, 2_500],
        "the 5 h gap between turns waits 1 s"
    );
    let (finished, _) = next(&mut handle, begun).await;
    assert_eq!(finished, EventMsg::ReplayFinished { events: 4 });
    handle.ops.send(Op::Shutdown).await.unwrap();
    assert!(handle.events.recv().await.is_none());
}

#[tokio::test(start_paused = true)]
async fn the_front_end_stays_open_after_the_last_event_until_it_quits() {
    let mut handle = spawn_replay(recording(vec![at(0, 1, text("a"))]), paced(1.0));
    for _ in 0..3 {
        handle.events.recv().await.unwrap();
    }
    tokio::time::sleep(Duration::from_secs(3_600)).await;
    assert!(
        handle.events.try_recv().is_err(),
        "nothing more, and not closed"
    );
    assert!(!handle.task.is_finished());
    handle.ops.send(Op::Shutdown).await.unwrap();
    assert!(handle.events.recv().await.is_none());
}

#[tokio::test(start_paused = true)]
async fn shutdown_stops_a_replay_midway() {
    let events = vec![at(0, 1, text("a")), at(60_000, 1, text("b"))];
    let begun = Instant::now();
    let mut handle = spawn_replay(recording(events), paced(1.0));
    next(&mut handle, begun).await;
    next(&mut handle, begun).await;
    handle.ops.send(Op::Shutdown).await.unwrap();
    assert!(handle.events.recv().await.is_none());
    assert!(begun.elapsed() < Duration::from_secs(1));
}

#[tokio::test(start_paused = true)]
async fn ops_that_need_a_model_are_refused_with_a_warning() {
    let events = vec![at(0, 1, text("a")), at(10_000, 1, text("b"))];
    let mut handle = spawn_replay(recording(events), paced(1.0));
    handle.events.recv().await.unwrap();
    handle.events.recv().await.unwrap();
    let submit = Op::Submit {
        options: Default::default(),
        text: "new question".into(),
        mode: crate::protocol::Mode::Normal,
        context_paths: Vec::new(),
    };
    handle.ops.send(submit).await.unwrap();
    let refusal = handle.events.recv().await.unwrap();
    assert_eq!(
        refusal.msg,
        warning("this is a replay: nothing is sent to a model")
    );
    assert_eq!(refusal.at, START, "stamped with the replay's clock");
    assert_eq!(handle.events.recv().await.unwrap().msg, text("b"));
}

#[tokio::test(start_paused = true)]
async fn notes_on_missing_logs_come_first_as_warnings() {
    let mut recorded = recording(vec![at(0, 1, text("a"))]);
    recorded.notes = vec!["turn_2: its event log is missing".into()];
    let mut handle = spawn_replay(recorded, paced(1.0));
    handle.events.recv().await.unwrap();
    assert_eq!(
        handle.events.recv().await.unwrap().msg,
        warning("turn_2: its event log is missing")
    );
    assert_eq!(handle.events.recv().await.unwrap().msg, text("a"));
}

/// The messages that arrive without another step.
async fn one_step(handle: &mut OrchestratorHandle) -> Vec<EventMsg> {
    tokio::time::sleep(Duration::from_secs(60)).await;
    let mut msgs = Vec::new();
    while let Ok(event) = handle.events.try_recv() {
        msgs.push(event.msg);
    }
    msgs
}

#[tokio::test(start_paused = true)]
async fn a_step_plays_the_streamed_deltas_up_to_the_next_other_event() {
    let status = EventMsg::AgentStatus {
        status: crate::protocol::AgentStatus::Streaming,
    };
    let events = vec![
        at(0, 1, warning("turn begins")),
        at(10, 1, status.clone()),
        at(20, 1, text("a")),
        at(30, 1, text("b")),
        at(40, 1, warning("between")),
        at(50, 1, text("c")),
    ];
    let mut handle = spawn_replay(
        recording(events),
        ReplayOptions {
            speed: 1.0,
            step: true,
        },
    );
    let first = one_step(&mut handle).await;
    assert!(matches!(
        first[0],
        EventMsg::ReplayStarted { step: true, .. }
    ));
    assert_eq!(
        first[1..],
        [warning("turn begins")],
        "the first step plays at once"
    );
    handle.ops.send(Op::Step).await.unwrap();
    assert_eq!(one_step(&mut handle).await, [status]);
    handle.ops.send(Op::Step).await.unwrap();
    assert_eq!(
        one_step(&mut handle).await,
        [text("a"), text("b"), warning("between")]
    );
    handle.ops.send(Op::Step).await.unwrap();
    assert_eq!(
        one_step(&mut handle).await,
        [text("c"), EventMsg::ReplayFinished { events: 6 }]
    );
}
