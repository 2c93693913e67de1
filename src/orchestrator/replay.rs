//! The orchestrator's stand-in for `massgen replay`: a task that plays a recording's events
//! to a front end at their recorded pace divided by the speed, or one step per `Op::Step`.
//! It calls no model: every op that would reach one is answered with a warning.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use super::OrchestratorHandle;
use crate::protocol::{Event, EventMsg, Op};
use crate::session::Recording;

/// The longest wait between two turns, whatever the recording says (turns of a session
/// can be hours apart).
pub const TURN_GAP_CAP: Duration = Duration::from_secs(1);

/// The longest single wait, however slow the replay is asked to be.
const MAX_PAUSE: Duration = Duration::from_secs(24 * 3600);

/// Events sent without a pause between looks at the ops (a fast replay must still stop
/// when asked).
const BURST: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplayOptions {
    /// Times the recorded pace; above zero.
    pub speed: f64,
    /// One step per `Op::Step` instead of the recorded pace: a step is every streamed
    /// delta up to and including the next event that is not one.
    pub step: bool,
}

/// Starts playing `recording` on the current tokio runtime.
pub fn spawn_replay(recording: Recording, options: ReplayOptions) -> OrchestratorHandle {
    let (ops_tx, ops_rx) = mpsc::channel(64);
    let (events_tx, events_rx) = super::event_queue::event_channel();
    let player = Player {
        ops: ops_rx,
        events: events_tx,
        clock: jiff::Timestamp::UNIX_EPOCH,
    };
    let task = tokio::spawn(player.play(recording, options));
    OrchestratorHandle {
        ops: ops_tx,
        events: events_rx,
        task,
    }
}

/// How long to wait between `previous` and `next`: the recorded gap divided by `speed`,
/// at most [`TURN_GAP_CAP`] between turns.
pub fn pause_between(previous: &Event, next: &Event, speed: f64) -> Duration {
    let recorded = next.at.duration_since(previous.at).as_secs_f64().max(0.0);
    let pause = Duration::try_from_secs_f64(recorded / speed)
        .unwrap_or(MAX_PAUSE)
        .min(MAX_PAUSE);
    if next.turn == previous.turn {
        pause
    } else {
        pause.min(TURN_GAP_CAP)
    }
}

/// Streamed text: a step in `--step` mode carries these along to the next other event.
pub fn is_delta(msg: &EventMsg) -> bool {
    matches!(
        msg,
        EventMsg::TextDelta { .. }
            | EventMsg::ReasoningDelta { .. }
            | EventMsg::FinalPresentationDelta { .. }
    )
}

/// The front end left (or asked to stop): the replay ends.
struct Stopped;

struct Player {
    ops: mpsc::Receiver<Op>,
    events: super::event_queue::EventSender,
    /// When the newest event sent happened: the replay's own events are stamped with it.
    clock: jiff::Timestamp,
}

impl Player {
    async fn play(mut self, recording: Recording, options: ReplayOptions) {
        let Recording {
            source,
            events,
            notes,
        } = recording;
        self.clock = events.first().map_or_else(jiff::Timestamp::now, |e| e.at);
        let count = events.len() as u64;
        let started = EventMsg::ReplayStarted {
            source,
            speed: options.speed,
            step: options.step,
        };
        let mut opening = vec![started];
        opening.extend(
            notes
                .into_iter()
                .map(|message| EventMsg::Warning { message }),
        );
        let played = async {
            for msg in opening {
                self.send_own(msg)?;
            }
            if options.step {
                self.step_through(events).await?;
            } else {
                self.paced(events, options.speed).await?;
            }
            self.send_own(EventMsg::ReplayFinished { events: count })
        };
        if played.await.is_ok() {
            // The front end stays on the last screen until it quits.
            while self.next_op().await.is_ok() {}
        }
    }

    async fn paced(&mut self, events: Vec<Event>, speed: f64) -> Result<(), Stopped> {
        let mut due = Instant::now();
        let mut burst = 0;
        let mut events = events.into_iter().peekable();
        while let Some(event) = events.next() {
            if Instant::now() < due {
                burst = 0;
                self.wait_until(due).await?;
            } else if burst == BURST {
                burst = 0;
                tokio::task::yield_now().await;
                self.pending_ops()?;
            }
            burst += 1;
            let pause = events
                .peek()
                .map_or(Duration::ZERO, |next| pause_between(&event, next, speed));
            self.send(event)?;
            due = due.checked_add(pause).unwrap_or(due);
        }
        Ok(())
    }

    async fn step_through(&mut self, events: Vec<Event>) -> Result<(), Stopped> {
        let mut events = events.into_iter().peekable();
        // The first step plays at once, so the screen shows the turn.
        let mut first = true;
        while events.peek().is_some() {
            if !first {
                while self.next_op().await? != Op::Step {}
            }
            first = false;
            for event in events.by_ref() {
                let delta = is_delta(&event.msg);
                self.send(event)?;
                if !delta {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Sleeps until `due`, answering ops meanwhile.
    async fn wait_until(&mut self, due: Instant) -> Result<(), Stopped> {
        loop {
            tokio::select! {
                op = self.ops.recv() => { self.answer(op)?; }
                () = sleep_until(due) => return Ok(()),
            }
        }
    }

    /// Answers the ops already waiting.
    fn pending_ops(&mut self) -> Result<(), Stopped> {
        while let Ok(op) = self.ops.try_recv() {
            self.answer(Some(op))?;
        }
        Ok(())
    }

    /// The next op that is not answered here: `Op::Step`.
    async fn next_op(&mut self) -> Result<Op, Stopped> {
        loop {
            let op = self.ops.recv().await;
            if op == Some(Op::Step) {
                return Ok(Op::Step);
            }
            self.answer(op)?;
        }
    }

    /// Stops on `Shutdown` (or a front end gone); refuses what would need a model.
    fn answer(&mut self, op: Option<Op>) -> Result<(), Stopped> {
        let refusal = match op {
            None | Some(Op::Shutdown) => return Err(Stopped),
            Some(Op::Step) => return Ok(()),
            Some(
                Op::Submit { .. }
                | Op::InjectHumanInput { .. }
                | Op::AnswerQuestion { .. }
                | Op::AnswerApproval { .. },
            ) => "this is a replay: nothing is sent to a model",
            Some(Op::ListPlans) => "this is a replay: it has no saved plans to list",
            Some(Op::Cancel) => "this is a replay: there is no run to cancel",
            Some(Op::AnswerNow) => "this is a replay: its final answers are as recorded",
            Some(Op::ClearHistory) => "this is a replay: its history is as recorded",
            Some(Op::OverrideFinal { .. }) => "this is a replay: its final answers are as recorded",
            Some(Op::ReplaceAgents { .. }) => "this is a replay: its agents are as recorded",
        };
        self.send_own(EventMsg::Warning {
            message: refusal.into(),
        })
    }

    fn send(&mut self, event: Event) -> Result<(), Stopped> {
        self.clock = event.at;
        if self.events.send(event) {
            Ok(())
        } else {
            Err(Stopped)
        }
    }

    /// An event of the replay itself: outside any turn, at the replay's clock.
    fn send_own(&mut self, msg: EventMsg) -> Result<(), Stopped> {
        let event = Event {
            seq: 0,
            at: self.clock,
            turn: 0,
            agent: None,
            msg,
        };
        self.send(event)
    }
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;
