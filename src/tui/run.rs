//! The app loop: one `select!` over terminal input, orchestrator events (every pending one
//! applied before a single frame) and a redraw timer. When to draw is the frame pacer's
//! (`pacer.rs`): only when something changed — what the user did at most 60 times a
//! second, streamed news at a spinner's pace — and otherwise only as often as a spinner or
//! a clock on screen steps on; idle, never.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream};
use futures::StreamExt;
use tokio::time::{Instant, sleep_until};

use super::agents_io;
use super::app::{App, Effect};
use super::choices::{Choices, NextQuestion};
use super::clocks::{SPINNER_TICK, moving, update_clocks};
use super::composer::Composer;
use super::frame::render;
use super::open::{copy_to_clipboard, open_in_desktop};
use super::pacer::FramePacer;
use super::terminal::TerminalGuard;
use super::theme::Theme;
use crate::orchestrator::OrchestratorHandle;
use crate::protocol::{Mode, Op, TurnOutcome};

/// What the session starts with.
#[derive(Clone, Debug, Default)]
pub struct TuiOptions {
    /// Asked at once.
    pub question: Option<String>,
    /// The YAML file the agents came from, for `/config` and `/status`.
    pub config_file: Option<PathBuf>,
    /// The mode and choices to start in (`--plan`, `--execute-plan`, `--plan-depth`, …).
    pub mode: Mode,
    pub turn: crate::protocol::TurnOptions,
    /// `--allow-outside-project`, for `@path` in the composer.
    pub allow_outside_project: bool,
    /// The turn's cost budget, shown in the header.
    pub budget_usd: Option<f64>,
    /// Shown under the composer at the start (the demo's pointer to local models).
    pub notice: Option<String>,
    /// What the run warned about before it started, escaped: on the welcome view and in
    /// `/status` (standard error is under the alternate screen).
    pub warnings: Vec<String>,
    /// The config's `orchestrator.context_paths`, for `/context`.
    pub context_paths: Vec<crate::config::ContextPath>,
    /// The run's agents, as the agents view (`/agents`) starts from them.
    pub agents: Vec<crate::config::AgentDraft>,
    /// `--quickstart`: open the agents view at once, this line above the agents.
    pub quickstart: Option<String>,
    /// For the keys the agents view's model lists need.
    pub env: crate::config::Env,
    /// `--no-mouse` / `MASSGEN_NO_MOUSE`: leave the mouse to the terminal (its own text
    /// selection) instead of clicks and the wheel.
    pub no_mouse: bool,
    /// The config's `orchestrator.strategy`, for the mode bar until the user picks one
    /// (`None` in a replay: the recorded turns say).
    pub strategy: Option<crate::protocol::Strategy>,
}

/// Runs the TUI over `handle` until the user quits or SIGINT, SIGTERM, SIGHUP or the
/// terminal going away ends the session (`signalled`: the running turn was cancelled and
/// saved first, as Ctrl+C would). However the loop ends, the orchestrator is shut down so
/// its logs are finished.
pub async fn run(mut handle: OrchestratorHandle, options: TuiOptions) -> io::Result<SessionEnd> {
    // Caught before the terminal changes: from then on, a signal's default action (the
    // process ends) would leave it in raw mode on the alternate screen.
    let terminate = terminate_signal();
    let guard = TerminalGuard::enter(!options.no_mouse)?;
    let outcome = event_loop(guard, terminate, &mut handle, options).await;
    let _ = handle.ops.send(Op::Shutdown).await;
    let drain = async {
        while handle.events.recv().await.is_some() {}
        let _ = (&mut handle.task).await;
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), drain).await;
    outcome
}

/// How a session ended: by a signal (or the terminal going away), and how each of its
/// turns ended (outcome, and whether a final answer was presented), for the exit code.
pub struct SessionEnd {
    pub signalled: bool,
    pub turns: Vec<(TurnOutcome, bool)>,
    /// The newest final answer of the session's live turns, for `--output-file`.
    pub answer: Option<String>,
}

impl SessionEnd {
    fn of(app: &App, signalled: bool) -> Self {
        let mut turns = app.turn_endings().to_vec();
        // Quitting mid-turn (a second Ctrl+C, or the first for a turn already cancelling):
        // the shutdown that follows cancels the turn, which ends the session as cancelled.
        if app.state.is_running() && !app.is_replay() {
            turns.push((TurnOutcome::Cancelled, false));
        }
        let answer = app.latest_answer().map(str::to_owned);
        Self {
            signalled,
            turns,
            answer,
        }
    }
}

/// The loop proper; the terminal is restored when `guard` drops, before the shutdown.
async fn event_loop(
    mut guard: TerminalGuard,
    mut terminate: Terminate,
    handle: &mut OrchestratorHandle,
    options: TuiOptions,
) -> io::Result<SessionEnd> {
    let mut app = App::new(Vec::new())
        .with_cwd(std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")))
        .with_config_file(options.config_file)
        .with_context_paths(options.context_paths)
        .allowing_outside_project(options.allow_outside_project);
    app.theme = Theme::from_env();
    app.view.input.composer = Composer::new(&app.theme);
    app.next = NextQuestion {
        mode: options.mode,
        choices: Choices {
            configured: options.strategy,
            ..Choices::from_options(&options.turn)
        },
    };
    app.view.budget_usd = options.budget_usd;
    app.view.notice = options.notice;
    app.state.startup_warnings = options.warnings;
    app = app.with_agent_drafts(options.agents.clone());
    if let Some(intro) = options.quickstart {
        app.open_quickstart(options.agents, intro);
    }
    let (news_tx, mut news_rx) = tokio::sync::mpsc::unbounded_channel();
    // A plan to execute needs no question: one given is added as extra instructions.
    let question = options
        .question
        .or_else(|| (options.mode == Mode::Execute).then(String::new));
    if let Some(text) = question {
        let submit = Op::Submit {
            text,
            mode: options.mode,
            context_paths: Vec::new(),
            options: app.next.choices.options(options.mode),
        };
        let _ = handle.ops.send(submit).await;
    }
    let started = Instant::now();
    let mut input = EventStream::new();
    let mut batch = Vec::with_capacity(256);
    let mut pacer = FramePacer::new();
    // Set once a signal arrived: until when the cancelled turn may take to be saved. The
    // terminal is then neither drawn nor read (it may be gone).
    let mut ending: Option<Instant> = None;
    loop {
        let now = Instant::now();
        if let Some(deadline) = ending
            && (!app.state.is_running() || now >= deadline)
        {
            return Ok(SessionEnd::of(&app, true));
        }
        let (expired, notice_until) = app.expire_notice(now.into_std());
        if expired {
            pacer.changed();
        }
        if ending.is_none() && pacer.is_due(now, &moving(&app, started, now)) {
            // What arrived while the frame waited goes into it (see the events arm).
            while let Ok(event) = handle.events.try_recv() {
                app.on_event(&event);
            }
            update_clocks(&mut app);
            app.view.clocks.spinner = spinner_frame(now.duration_since(started));
            // The frame's cost is the drawing: folding the news takes as long however
            // often frames come.
            let drawing = Instant::now();
            let drawn = guard
                .terminal
                .draw(|frame| render(&app.state, &app.view, &app.next, &app.theme, frame));
            if let Err(error) = drawn {
                // The terminal is gone (a hang-up not yet seen) or unusable: as a hang-up.
                tracing::warn!(%error, "cannot draw; ending the session");
                for effect in end(&mut ending, app.state.is_running()) {
                    if let Effect::Send(op) = effect {
                        let _ = handle.ops.send(op).await;
                    }
                }
                continue;
            }
            pacer.drew(now, drawing.elapsed());
        }
        let wake = ending.unwrap_or_else(|| {
            let due = pacer.due(now, &moving(&app, started, now));
            let until = notice_until.map(Instant::from_std);
            due.into_iter()
                .chain(until)
                .min()
                .unwrap_or(now + Duration::from_secs(3600))
        });
        let effects = tokio::select! {
            input = input.next(), if ending.is_none() => match input {
                Some(Ok(event)) => {
                    let (changed, effects) = on_terminal_event(&mut app, event);
                    if changed {
                        pacer.changed();
                    }
                    effects
                }
                // The terminal is gone: as a hang-up.
                Some(Err(_)) | None => end(&mut ending, app.state.is_running()),
            },
            // While a frame is owed, events wait in the channel and are folded just before
            // it is drawn: one wake-up per frame, not one per streamed token.
            received = handle.events.recv_many(&mut batch, 256), if ending.is_some() || !pacer.owes_frame() => {
                if received == 0 {
                    return Err(io::Error::other("the orchestrator stopped unexpectedly"));
                }
                for event in batch.drain(..) {
                    app.on_event(&event);
                }
                pacer.streamed();
                Vec::new()
            }
            Some(news) = news_rx.recv() => {
                pacer.changed();
                agents_io::deliver(&mut app, news)
            }
            // A frame, a notice or the end of a cancelled turn is due: the loop's top sees to it.
            () = sleep_until(wake) => Vec::new(),
            () = terminate.recv() => match ending {
                Some(_) => return Ok(SessionEnd::of(&app, true)),
                None => end(&mut ending, app.state.is_running()),
            },
        };
        for effect in effects {
            match effect {
                Effect::Send(op) => {
                    let _ = handle.ops.send(op).await;
                }
                Effect::OpenFile(path) => {
                    app.view.notice = Some(open_in_desktop(&path));
                    pacer.changed();
                }
                Effect::Copy(text) => copy_to_clipboard(&text),
                Effect::Quit => return Ok(SessionEnd::of(&app, false)),
                Effect::Export {
                    turn,
                    path,
                    markdown,
                } => {
                    let target = path.clone();
                    let written = tokio::task::spawn_blocking(move || {
                        super::export::write_new(&target, &markdown)
                    })
                    .await
                    .unwrap_or_else(|error| Err(std::io::Error::other(error)));
                    app.view.notice = Some(super::export::notice(turn, &written, &path));
                    pacer.changed();
                }
                Effect::FetchModels { .. } | Effect::SaveAgents { .. } => {
                    agents_io::carry_out(effect, &options.env, &news_tx);
                }
            }
        }
    }
}

/// The session ends: the running turn, if any, is cancelled and has 5 s to be saved.
fn end(ending: &mut Option<Instant>, running: bool) -> Vec<Effect> {
    *ending = Some(Instant::now() + Duration::from_secs(5));
    if running {
        vec![Effect::Send(Op::Cancel)]
    } else {
        Vec::new()
    }
}

/// The spinner turns at a fixed speed, however often frames are drawn.
fn spinner_frame(elapsed: Duration) -> usize {
    usize::try_from(elapsed.as_millis() / SPINNER_TICK.as_millis()).unwrap_or(0)
}

/// Whether the screen changed, and what to do.
fn on_terminal_event(app: &mut App, event: TermEvent) -> (bool, Vec<Effect>) {
    match event {
        TermEvent::Key(key) => (true, app.on_key(key)),
        TermEvent::Paste(text) => {
            app.on_paste(&text);
            (true, Vec::new())
        }
        TermEvent::Mouse(mouse) => (app.on_mouse(mouse), Vec::new()),
        TermEvent::Resize(..) => (true, Vec::new()),
        TermEvent::FocusGained | TermEvent::FocusLost => (false, Vec::new()),
    }
}

/// SIGINT, SIGTERM or SIGHUP on Unix; never elsewhere. In raw mode Ctrl+C is a key, so a
/// SIGINT comes from outside (`kill -INT`): it ends the session as SIGTERM does.
pub(crate) struct Terminate {
    #[cfg(unix)]
    signals: Vec<tokio::signal::unix::Signal>,
}

pub(crate) fn terminate_signal() -> Terminate {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            SignalKind::interrupt(),
            SignalKind::terminate(),
            SignalKind::hangup(),
        ];
        let signals = kinds.into_iter().filter_map(|kind| signal(kind).ok());
        Terminate {
            signals: signals.collect(),
        }
    }
    #[cfg(not(unix))]
    Terminate {}
}

impl Terminate {
    pub(crate) async fn recv(&mut self) {
        #[cfg(unix)]
        {
            if self.signals.is_empty() {
                std::future::pending::<()>().await;
            }
            let waits = self
                .signals
                .iter_mut()
                .map(|signal| Box::pin(signal.recv()));
            futures::future::select_all(waits).await;
        }
        #[cfg(not(unix))]
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_shows_recorded_time_not_the_wall_clock() {
        use crate::protocol::{Event, EventMsg};
        use crate::tui::test_support::event;

        let later = |seconds: i64, msg: EventMsg| Event {
            at: jiff::Timestamp::UNIX_EPOCH + jiff::SignedDuration::from_secs(seconds),
            ..event(1, None, msg)
        };
        let mut app = App::new(Vec::new());
        let replay = EventMsg::ReplayStarted {
            source: PathBuf::from("recorded"),
            speed: 1.0,
            step: false,
        };
        app.on_event(&later(0, replay));
        let question = EventMsg::TurnStarted {
            options: Default::default(),
            question: "q".into(),
            mode: Mode::Normal,
            agents: Vec::new(),
            log_dir: None,
        };
        app.on_event(&later(10, question));
        let warning = EventMsg::Warning {
            message: "w".into(),
        };
        app.on_event(&later(85, warning));
        update_clocks(&mut app);
        assert_eq!(app.view.clocks.elapsed_secs, Some(75));
    }

    #[tokio::test(start_paused = true)]
    async fn quitting_mid_turn_ends_the_session_as_a_cancelled_turn() {
        use crate::tui::test_support::{demo_turns, first_answer};

        let events = demo_turns(&["q"]).await;
        let answered = events
            .iter()
            .position(|event| first_answer(&event.msg))
            .unwrap();
        let mut app = App::new(Vec::new());
        for event in &events[..answered] {
            app.on_event(event);
        }
        let mid_turn = SessionEnd::of(&app, false);
        assert_eq!(mid_turn.turns, [(TurnOutcome::Cancelled, false)]);
        for event in &events[answered..] {
            app.on_event(event);
        }
        let after = SessionEnd::of(&app, false);
        assert_eq!(after.turns, [(TurnOutcome::Completed, true)]);
    }

    #[test]
    fn the_spinner_follows_the_clock_not_the_frame_rate() {
        assert_eq!(spinner_frame(Duration::from_millis(99)), 0);
        assert_eq!(spinner_frame(Duration::from_millis(1000)), 10);
    }
}
