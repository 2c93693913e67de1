//! The clocks the screen shows: the turn's and each agent's elapsed time, an open
//! question's time left and each round's time left, from event timestamps and the wall
//! clock (a replay's own clock in a replay).

use jiff::Timestamp;

use super::app::App;
use crate::protocol::AgentStatus;

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
    let now = app
        .state
        .replay
        .as_ref()
        .map_or_else(Timestamp::now, |replay| replay.clock);
    let since = |start: Timestamp| u64::try_from(now.duration_since(start).as_secs()).unwrap_or(0);
    app.view.elapsed_secs = match (app.state.turns.last(), app.state.is_running()) {
        (_, true) => app.state.turn_started_at.map(since),
        (Some(done), false) => Some(done.duration_ms / 1000),
        (None, false) => None,
    };
    app.view.question_secs_left = app.view.question.as_ref().and_then(|form| {
        let pending = app
            .state
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)?;
        Some(pending.timeout_secs.saturating_sub(since(pending.asked_at)))
    });
    if app.state.is_running() {
        app.view.agent_elapsed_secs = app
            .state
            .agents
            .iter()
            .map(|card| card.started_at.map(since))
            .collect();
        app.view.agent_round_left = app
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
        app.view.agent_round_left.clear();
    }
}
