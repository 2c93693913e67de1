//! The acceptance test of `massgen replay`: a turn run live with logs, and the same turn
//! replayed from its session directory, end on the same screen; the replay adds only its bar.

use insta::assert_snapshot;

use super::tests::{FRANCE, draw, view};
use crate::config;
use crate::orchestrator::{ReplayOptions, spawn_replay};
use crate::protocol::{EventMsg, Op};
use crate::session::load_recording;
use crate::tui::app::App;
use crate::tui::test_support::logged_turns;

/// The only session under `massgen_dir`.
fn the_session(massgen_dir: &std::path::Path) -> std::path::PathBuf {
    let mut sessions: Vec<_> = std::fs::read_dir(massgen_dir.join("sessions"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    sessions.remove(0)
}

/// The app after every event the replay of `path` sends.
async fn replayed(path: &std::path::Path) -> App {
    replayed_at(path, 1000.0, |_, _| {}).await
}

/// The app after every event a replay of `path` at `speed` sends, `each` called with
/// the app and the event after every one.
async fn replayed_at(
    path: &std::path::Path,
    speed: f64,
    mut each: impl FnMut(&App, &EventMsg),
) -> App {
    let recording = load_recording(path).unwrap();
    let options = ReplayOptions { speed, step: false };
    let mut handle = spawn_replay(recording, options);
    let mut app = App::new(Vec::new());
    loop {
        let event = handle.events.recv().await.unwrap();
        app.on_event(&event);
        each(&app, &event.msg);
        if matches!(event.msg, EventMsg::ReplayFinished { .. }) {
            break;
        }
    }
    handle.ops.send(Op::Shutdown).await.unwrap();
    handle.task.await.unwrap();
    app
}

/// What the 80×24 screen shows of the cards' streamed text once `app` has folded an
/// event, without the replay's bar; `None` for events that stream nothing.
fn streamed_screen(app: &App, last: &EventMsg) -> Option<String> {
    if !matches!(
        last,
        EventMsg::TextDelta { .. }
            | EventMsg::ReasoningDelta { .. }
            | EventMsg::FinalPresentationDelta { .. }
    ) {
        return None;
    }
    let mut state = app.state.clone();
    state.replay = None;
    Some(super::tests::screen_text(&draw(&state, &view(), 80, 24)))
}

#[tokio::test(start_paused = true)]
async fn a_replayed_turn_ends_on_the_screen_of_the_live_run() {
    let dir = tempfile::tempdir().unwrap();
    let massgen_dir = dir.path().join(".massgen");
    let demo = config::examples::demo().unwrap();
    let events = logged_turns(demo.text, &[FRANCE], Some(massgen_dir.clone())).await;
    let mut live = App::new(Vec::new());
    for event in &events {
        live.on_event(event);
    }
    let replay = replayed(&the_session(&massgen_dir)).await;

    let winner = live.state.turn.winner.clone().unwrap();
    let focused = live.state.agent_index(&winner).unwrap();
    let mut fixed = view();
    fixed.cards.focused = focused;
    let mut without_bar = replay.state.clone();
    assert!(without_bar.replay.take().is_some_and(|bar| bar.finished));
    for (width, height) in [(80, 24), (160, 48)] {
        let live_screen = draw(&live.state, &fixed, width, height);
        assert_eq!(
            draw(&without_bar, &fixed, width, height).buffer(),
            live_screen.buffer(),
            "the replayed screen at {width}x{height}"
        );
        assert_snapshot!(format!("replayed_turn_{width}x{height}"), live_screen);
    }
    let mut keys = fixed;
    keys.input.focused = replay.view.input.focused;
    let mut state = replay.state;
    if let Some(bar) = state.replay.as_mut() {
        bar.source = "/home/user/project/.massgen/sessions/session_20260101_120000".into();
    }
    assert_snapshot!("replay_bar_80x24", draw(&state, &keys, 80, 24));
}

/// Issue 19: a replay shows streamed text growing exactly as the live run did, word by
/// word, whatever its speed.
#[tokio::test(start_paused = true)]
async fn a_replay_at_any_speed_shows_the_text_growing_as_it_grew_live() {
    let dir = tempfile::tempdir().unwrap();
    let massgen_dir = dir.path().join(".massgen");
    let demo = config::examples::demo().unwrap();
    let events = logged_turns(demo.text, &[FRANCE], Some(massgen_dir.clone())).await;
    let mut live = App::new(Vec::new());
    let mut live_screens = Vec::new();
    for event in &events {
        live.on_event(event);
        live_screens.extend(streamed_screen(&live, &event.msg));
    }
    assert!(live_screens.len() > 50, "{} deltas", live_screens.len());
    let session = the_session(&massgen_dir);
    for speed in [0.5, 4.0, 1000.0] {
        let mut screens = Vec::new();
        replayed_at(&session, speed, |app, msg| {
            screens.extend(streamed_screen(app, msg));
        })
        .await;
        assert_eq!(screens.len(), live_screens.len(), "at speed {speed}");
        for (at, (replayed, live)) in screens.iter().zip(&live_screens).enumerate() {
            assert_eq!(replayed, live, "delta {at} at speed {speed}");
        }
    }
}

/// Issue 33: every coordination event this wave added reaches the timeline of a replayed
/// session, and of a resumed one (the compacted recording keeps each).
#[tokio::test(start_paused = true)]
async fn a_replay_shows_each_new_coordination_event_in_the_timeline() {
    use crate::protocol::{DraftedApproach, Impact, PlannedImprovement, TurnOutcome};
    let mut events = super::stopped_tests::decomposition_turn();
    let approach = DraftedApproach {
        vision: None,
        plan: vec![PlannedImprovement {
            criterion: "E2".into(),
            plan: "cite the sources".into(),
            sources: Vec::new(),
            impact: Impact::Structural,
        }],
        preserve: Vec::new(),
    };
    let persona = EventMsg::PersonaAssigned {
        text: "You are a careful historian.".into(),
        summary: Some("careful historian".into()),
        reused: false,
    };
    let finished = EventMsg::TurnFinished {
        outcome: TurnOutcome::Completed,
        winner: None,
        duration_ms: 1000,
    };
    for (agent, msg) in [
        (Some("scholar"), persona),
        (Some("scholar"), EventMsg::ApproachDrafted { approach }),
        (Some("scholar"), EventMsg::FairnessHold { lead: 1, cap: 1 }),
        (Some("scholar"), EventMsg::FairnessReleased),
        (None, finished),
    ] {
        let seq = events.len() as u64 + 1;
        events.push(crate::tui::test_support::event(seq, agent, msg));
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("events.jsonl");
    let lines: Vec<String> = events
        .iter()
        .map(|event| serde_json::to_string(event).unwrap())
        .collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();

    let shown = [
        "◆ subtasks (decomposer): scout: Map the districts",
        "criteria (inline): E1 E2",
        "persona: careful historian",
        "approach: E2 structural",
        "⏸ held: waiting for peers (lead 1/1)",
        "▶ released",
        "■ stopped (complete): districts mapped",
        "■ stopped (blocked): waiting for the history's sources",
    ];
    let replay = replayed(&log).await;
    let resumed = crate::tui::test_support::fold(
        &events
            .into_iter()
            .filter_map(crate::session::compact_recorded)
            .collect::<Vec<_>>(),
    );
    for (how, state) in [("replayed", &replay.state), ("resumed", &resumed)] {
        let timeline = super::tests::screen_text(&draw(
            state,
            &super::tests::modal_view(crate::tui::view::ModalKind::Timeline),
            200,
            60,
        ));
        for entry in shown {
            assert!(timeline.contains(entry), "{how}: {entry}: {timeline}");
        }
    }
}
