//! `massgen replay PATH`: plays a recorded session, turn or event log through the
//! full-screen display or the plain printer. No config is read and no model is called.

use super::args::{DisplayArg, ReplayArgs};
use super::exit::Exit;
use super::front_end::{self, FrontEnd};
use super::{logging, run_async, tui_session};
use crate::orchestrator::{OrchestratorHandle, ReplayOptions, spawn_replay};
use crate::protocol::{EventMsg, Op};
use crate::session::load_recording;
use crate::tui::TuiOptions;

pub fn run(replay: &ReplayArgs, display: Option<DisplayArg>, debug: bool, no_mouse: bool) -> Exit {
    let front_end = front_end::choose(display, None, front_end::on_terminal());
    if replay.step && front_end != FrontEnd::Tui {
        eprintln!(
            "error: --step needs the full-screen display\n  help: on a terminal, leave out \
             --display; or replay at a pace with --speed X"
        );
        return Exit::Config;
    }
    if front_end == FrontEnd::Tui && !tui_session::on_a_terminal() {
        return Exit::Config;
    }
    let recording = match load_recording(&replay.path) {
        Ok(recording) => recording,
        Err(error) => {
            eprintln!("error: {error}");
            return Exit::Config;
        }
    };
    let options = ReplayOptions {
        speed: replay.speed,
        step: replay.step,
    };
    let _log_guard = logging::init(
        debug,
        front_end == FrontEnd::Tui,
        None,
        &crate::redact::Redactor::default(),
    );
    match front_end {
        FrontEnd::Tui => run_async(async move {
            let tui = TuiOptions {
                no_mouse,
                ..TuiOptions::default()
            };
            tui_session::show(spawn_replay(recording, options), tui, None).await
        }),
        FrontEnd::Plain | FrontEnd::Quiet | FrontEnd::Automation => {
            eprintln!(
                "massgen: replaying {} ({}) at {}× the recorded pace",
                replay.path.display(),
                crate::text::plural(recording.events.len(), "event"),
                replay.speed
            );
            run_async(async move { print(spawn_replay(recording, options), front_end).await })
        }
    }
}

/// Prints every replayed event; Ctrl+C stops the replay.
async fn print(mut handle: OrchestratorHandle, front_end: FrontEnd) -> Exit {
    let mut printer = super::front_end::printer(front_end);
    let exit = loop {
        tokio::select! {
            event = handle.events.recv() => {
                let Some(event) = event else { break Exit::Execution };
                if let Err(error) = printer.handle(&event) {
                    eprintln!("massgen: cannot print the replay: {error}");
                    break Exit::Execution;
                }
                if let EventMsg::ReplayFinished { .. } = event.msg {
                    break Exit::Success;
                }
            }
            _ = tokio::signal::ctrl_c() => break Exit::Interrupted,
        }
    };
    let _ = handle.ops.send(Op::Shutdown).await;
    while handle.events.recv().await.is_some() {}
    let _ = handle.task.await;
    exit
}
