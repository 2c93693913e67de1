//! The eval screen's loop: the run goes on in its own task while the screen folds its
//! progress snapshots, redraws on each and on a clock tick, and reads keys and signals. A
//! stop cancels the run (finished items are already in results.jsonl); the terminal is
//! given back however the loop ends.

use std::future::Future;
use std::io;
use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::{Instant, MissedTickBehavior};

use crate::eval::progress::Progress;
use crate::eval::summary::Summary;
use crate::tui::eval::state::{Action, EvalHeader, EvalState};
use crate::tui::eval::view::render;
use crate::tui::run::terminate_signal;
use crate::tui::terminal::TerminalGuard;

/// How often the elapsed time and the ETA move on without news.
const TICK: Duration = Duration::from_millis(500);

/// How long a cancelled run may take to wind down before the screen quits anyway.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// How the screen ended.
#[derive(Debug)]
pub enum EvalEnd<T> {
    /// The run finished and the user left: what the work returned besides the summary.
    Completed(T),
    /// Stopped (a key, a signal or the terminal gone) before the run finished.
    Stopped,
    /// The run failed; the message says why.
    Failed(String),
}

/// Shows `work` (the run, then writing its reports) as it goes, from its `snapshots`, and
/// its summary at the end until the user leaves.
pub async fn run<T, W>(
    header: EvalHeader,
    mut snapshots: UnboundedReceiver<Progress>,
    work: W,
) -> io::Result<EvalEnd<T>>
where
    T: Send + 'static,
    W: Future<Output = Result<(Summary, T), String>> + Send + 'static,
{
    // Caught before the terminal changes: a signal's default action would leave it raw.
    let mut terminate = terminate_signal();
    let mut guard = TerminalGuard::enter(false)?;
    let mut task = tokio::spawn(work);
    let mut input = EventStream::new();
    let started = Instant::now();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut state = EvalState::new(header);
    let mut snapshots_open = true;
    let mut kept: Option<T> = None;
    loop {
        state.tick(started.elapsed());
        if guard.terminal.draw(|frame| render(&state, frame)).is_err() {
            // The terminal is gone: as a hang-up.
            return Ok(match kept {
                Some(rest) => EvalEnd::Completed(rest),
                None => stop(&mut state, task, &mut guard).await,
            });
        }
        let action = tokio::select! {
            received = snapshots.recv(), if snapshots_open => {
                match received {
                    Some(progress) => {
                        state.on_progress(progress);
                        while let Ok(progress) = snapshots.try_recv() {
                            state.on_progress(progress);
                        }
                    }
                    None => snapshots_open = false,
                }
                Action::Redraw
            }
            joined = &mut task, if state.is_running() => {
                while let Ok(progress) = snapshots.try_recv() {
                    state.on_progress(progress);
                }
                match joined {
                    Ok(Ok((summary, rest))) => {
                        state.tick(started.elapsed());
                        state.finish(summary);
                        kept = Some(rest);
                        Action::Redraw
                    }
                    Ok(Err(message)) => return Ok(EvalEnd::Failed(message)),
                    Err(error) => return Ok(EvalEnd::Failed(format!("the eval stopped: {error}"))),
                }
            }
            event = input.next() => match event {
                Some(Ok(TermEvent::Key(key))) => state.on_key(key),
                Some(Ok(_)) => Action::Redraw,
                Some(Err(_)) | None if state.is_running() => Action::Stop,
                Some(Err(_)) | None => Action::Quit,
            },
            _ = tick.tick() => Action::Redraw,
            () = terminate.recv() => if state.is_running() { Action::Stop } else { Action::Quit },
        };
        match action {
            Action::Nothing | Action::Redraw => {}
            Action::Stop => return Ok(stop(&mut state, task, &mut guard).await),
            Action::Quit => {
                return Ok(kept.map_or(EvalEnd::Stopped, EvalEnd::Completed));
            }
        }
    }
}

/// Cancels the run, shows that it stopped, and waits (a little) for it to wind down.
async fn stop<T>(
    state: &mut EvalState,
    task: tokio::task::JoinHandle<Result<(Summary, T), String>>,
    guard: &mut TerminalGuard,
) -> EvalEnd<T> {
    state.stop();
    let _ = guard.terminal.draw(|frame| render(state, frame));
    task.abort();
    let _ = tokio::time::timeout(STOP_GRACE, task).await;
    EvalEnd::Stopped
}
