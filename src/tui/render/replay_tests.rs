//! The acceptance test of `massgen replay`: a turn run live with logs, and the same turn
//! replayed from its session directory, end on the same screen; the replay adds only its bar.

use insta::assert_snapshot;

use super::tests::{FRANCE, draw, view};
use super::*;
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
    let recording = load_recording(path).unwrap();
    let options = ReplayOptions {
        speed: 1000.0,
        step: false,
    };
    let mut handle = spawn_replay(recording, options);
    let mut app = App::new(Vec::new());
    loop {
        let event = handle.events.recv().await.unwrap();
        app.on_event(&event);
        if matches!(event.msg, EventMsg::ReplayFinished { .. }) {
            break;
        }
    }
    handle.ops.send(Op::Shutdown).await.unwrap();
    handle.task.await.unwrap();
    app
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

    let winner = live.state.winner.clone().unwrap();
    let focused = live.state.agent_index(&winner).unwrap();
    let fixed = View { focused, ..view() };
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
    let keys = View {
        composer_focused: replay.view.composer_focused,
        ..fixed
    };
    let mut state = replay.state;
    if let Some(bar) = state.replay.as_mut() {
        bar.source = "/home/user/project/.massgen/sessions/session_20260101_120000".into();
    }
    assert_snapshot!("replay_bar_80x24", draw(&state, &keys, 80, 24));
}
