//! The clocks the screen shows: the turn's and each agent's elapsed time, an open
//! question's or approval's time left and each round's time left, from event timestamps
//! and the wall clock (a replay's own clock in a replay), and the cadences at which what
//! they show steps on by itself (for the frame pacer).

use std::time::Duration;

use jiff::Timestamp;
use tokio::time::Instant;

use super::app::App;
use super::pacer::Cadence;
use crate::protocol::AgentStatus;
use crate::tui::state::PendingApproval;

/// A spinner's frame time.
pub const SPINNER_TICK: Duration = Duration::from_millis(100);
const SECOND: Duration = Duration::from_secs(1);

/// The agent is inside a coordination round (its time limit counts).
fn is_in_round(status: AgentStatus) -> bool {
    matches!(
        status,
        AgentStatus::Thinking | AgentStatus::Streaming | AgentStatus::Tool
    )
}

/// The agent is doing something (its spinner turns).
pub fn is_working(status: AgentStatus) -> bool {
    match status {
        AgentStatus::Thinking
        | AgentStatus::Streaming
        | AgentStatus::Tool
        | AgentStatus::Restarting
        | AgentStatus::Presenting => true,
        AgentStatus::Waiting
        | AgentStatus::Answered
        | AgentStatus::Voted
        | AgentStatus::Done
        | AgentStatus::Error
        | AgentStatus::Cancelled
        | AgentStatus::TimedOut => false,
    }
}

/// Elapsed times from the event timestamps and the wall clock (in a replay, the time of
/// the newest event played); a finished turn keeps its final duration.
pub fn update_clocks(app: &mut App) {
    update_clocks_at(app, Timestamp::now());
}

/// [`update_clocks`] with the wall clock at `wall`.
fn update_clocks_at(app: &mut App, wall: Timestamp) {
    let now = app
        .state
        .replay
        .as_ref()
        .map_or(wall, |replay| replay.clock);
    let since = |start: Timestamp| u64::try_from(now.duration_since(start).as_secs()).unwrap_or(0);
    app.view.clocks.elapsed_secs = match (app.state.turns.last(), app.state.is_running()) {
        (_, true) => app.state.turn.started_at.map(since),
        (Some(done), false) => Some(done.duration_ms / 1000),
        (None, false) => None,
    };
    app.view.clocks.question_secs_left = app.view.modals.question.as_ref().and_then(|form| {
        let pending = app
            .state
            .planning
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)?;
        Some(pending.timeout_secs.saturating_sub(since(pending.asked_at)))
    });
    app.view.clocks.approval_secs_left = shown_approval(app).map(|pending| {
        pending
            .request
            .timeout_secs
            .saturating_sub(since(pending.asked_at))
    });
    if app.state.is_running() {
        app.view.clocks.agent_elapsed_secs = app
            .state
            .agents
            .iter()
            .map(|card| card.started_at.map(since))
            .collect();
        app.view.clocks.agent_round_left = app
            .state
            .agents
            .iter()
            .map(|card| {
                card.round_clock
                    .filter(|_| is_in_round(card.status))
                    .map(|clock| clock.left_at(now))
            })
            .collect();
    } else {
        app.view.clocks.agent_round_left.clear();
    }
}

/// The waiting call the approval view shows, if it is open.
fn shown_approval(app: &App) -> Option<&PendingApproval> {
    let form = app.view.modals.approval.as_ref()?;
    app.state
        .approvals
        .pending
        .iter()
        .find(|pending| pending.request.request_id == form.request_id)
}

/// What moves on screen by itself now: the spinner while an agent works (its frames
/// counted from `spinner_origin`); while a live turn runs, the turn's and each agent's
/// clock, each stepping on its own whole seconds; an open question's countdown. A replay's
/// clocks move only with its events; a finished turn's are still.
pub fn moving(app: &App, spinner_origin: Instant, now: Instant) -> Vec<Cadence> {
    let mut moving = Vec::new();
    if app.state.agents.iter().any(|card| is_working(card.status)) {
        moving.push(Cadence::new(spinner_origin, SPINNER_TICK));
    }
    if app.state.replay.is_some() {
        return moving;
    }
    let wall = Timestamp::now();
    let second_from = |start: Timestamp| Cadence::new(instant_of(start, wall, now), SECOND);
    if let Some(form) = &app.view.modals.question
        && let Some(pending) = app
            .state
            .planning
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)
    {
        moving.push(second_from(pending.asked_at));
    }
    if let Some(pending) = shown_approval(app) {
        moving.push(second_from(pending.asked_at));
    }
    if !app.state.is_running() {
        return moving;
    }
    moving.extend(app.state.turn.started_at.map(second_from));
    for card in &app.state.agents {
        moving.extend(card.started_at.map(second_from));
        if let Some(clock) = card.round_clock.filter(|_| is_in_round(card.status)) {
            let limit = Duration::from_millis(clock.limit.soft_ms);
            moving.push(Cadence::new(
                instant_of(clock.started, wall, now) + limit,
                SECOND,
            ));
        }
    }
    moving
}

/// The monotonic instant of wall-clock time `at`, `now` being `wall`.
fn instant_of(at: Timestamp, wall: Timestamp, now: Instant) -> Instant {
    let offset = wall.duration_since(at);
    let magnitude = offset.unsigned_abs();
    if offset.is_negative() {
        now + magnitude
    } else {
        now.checked_sub(magnitude).unwrap_or(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::test_support::{demo_turns, first_answer};

    #[tokio::test(start_paused = true)]
    async fn spinners_and_clocks_move_only_while_a_turn_runs() {
        let events = demo_turns(&["What is 2+2?"]).await;
        let mut app = App::new(Vec::new());
        let origin = Instant::now();
        assert!(moving(&app, origin, origin).is_empty(), "before any turn");
        let answered = events
            .iter()
            .position(|event| first_answer(&event.msg))
            .unwrap();
        for event in &events[..answered] {
            app.on_event(event);
        }
        let running = moving(&app, origin, Instant::now());
        assert!(
            running.contains(&Cadence::new(origin, SPINNER_TICK)),
            "{running:?}"
        );
        let seconds = running
            .iter()
            .filter(|cadence| cadence.period == SECOND)
            .count();
        assert_eq!(
            seconds,
            1 + app.state.agents.len(),
            "the turn's and each agent's clock"
        );
        for event in &events[answered..] {
            app.on_event(event);
        }
        assert!(!app.state.is_running());
        let idle = moving(&app, origin, Instant::now());
        assert!(idle.is_empty(), "a finished turn is still: {idle:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn the_turn_clock_stops_at_the_turns_duration_when_it_ends() {
        use crate::protocol::EventMsg;
        use crate::tui::render::tests::{draw, screen_text};
        use crate::tui::test_support::evenly_timed;
        use jiff::SignedDuration;

        let mut events = evenly_timed(demo_turns(&["What is 2+2?"]).await);
        let started_at = events
            .iter()
            .find(|event| matches!(event.msg, EventMsg::TurnStarted { .. }))
            .unwrap()
            .at;
        let finished = events
            .iter()
            .position(|event| matches!(event.msg, EventMsg::TurnFinished { .. }))
            .unwrap();
        let finished_at = events[finished].at;
        let took = finished_at.duration_since(started_at);
        if let EventMsg::TurnFinished { duration_ms, .. } = &mut events[finished].msg {
            *duration_ms = u64::try_from(took.as_millis()).unwrap();
        }
        let took_secs = u64::try_from(took.as_secs()).unwrap();
        assert!(took_secs > 10, "the turn takes a while: {took:?}");

        let mut app = App::new(Vec::new());
        for event in &events[..finished] {
            app.on_event(event);
        }
        assert!(app.state.is_running());
        update_clocks_at(&mut app, started_at + SignedDuration::from_secs(4));
        assert_eq!(app.view.clocks.elapsed_secs, Some(4));
        update_clocks_at(&mut app, started_at + SignedDuration::from_secs(9));
        assert_eq!(
            app.view.clocks.elapsed_secs,
            Some(9),
            "it runs with the turn"
        );

        for event in &events[finished..] {
            app.on_event(event);
        }
        assert!(!app.state.is_running());
        for later in [0, 1, 61, 3_600] {
            update_clocks_at(&mut app, finished_at + SignedDuration::from_secs(later));
            assert_eq!(
                app.view.clocks.elapsed_secs,
                Some(took_secs),
                "{later} s after the end"
            );
            let header = screen_text(&draw(&app.state, &app.view, 160, 48))
                .chars()
                .take(160)
                .collect::<String>();
            let shown = format!("⏱ {}", crate::tui::render::format::duration(took_secs));
            assert!(header.contains(&shown), "{shown} in {header}");
        }
    }

    #[test]
    fn a_clock_steps_on_the_seconds_of_its_own_start() {
        let now = Instant::now();
        let wall = Timestamp::UNIX_EPOCH + jiff::SignedDuration::from_secs(100);
        let started = wall - jiff::SignedDuration::from_millis(2_300);
        let at = instant_of(started, wall, now);
        assert_eq!(at + Duration::from_millis(2_300), now);
        let cadence = Cadence::new(at, SECOND);
        assert_eq!(cadence.next_after(now), now + Duration::from_millis(700));
        let future = wall + jiff::SignedDuration::from_millis(400);
        assert_eq!(
            instant_of(future, wall, now),
            now + Duration::from_millis(400)
        );
    }

    #[test]
    fn the_shown_approval_counts_down_from_its_ask_and_ticks_each_second() {
        use crate::protocol::{AgentId, AgentInfo, Event};
        use crate::tui::test_approvals::{asked, command_request};

        let asked_at = Timestamp::UNIX_EPOCH + jiff::SignedDuration::from_secs(1_000);
        let mut app = App::new(AgentInfo::roster([(
            AgentId::new("scout"),
            "scripted".to_string(),
            "m".to_string(),
        )]));
        app.on_event(&Event {
            seq: 1,
            at: asked_at,
            turn: 1,
            agent: Some(AgentId::new("scout")),
            msg: asked(command_request("r1", "ls")),
        });
        update_clocks_at(&mut app, asked_at + jiff::SignedDuration::from_secs(28));
        assert_eq!(app.view.clocks.approval_secs_left, Some(300 - 28));
        update_clocks_at(&mut app, asked_at + jiff::SignedDuration::from_secs(400));
        assert_eq!(app.view.clocks.approval_secs_left, Some(0), "never below 0");
        let ticking = moving(&app, Instant::now(), Instant::now());
        assert!(
            ticking.iter().any(|cadence| cadence.period == SECOND),
            "{ticking:?}"
        );
    }
}
