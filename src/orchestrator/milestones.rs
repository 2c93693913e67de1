//! The coordination milestones written to `massgen.log` at info level (answers, votes,
//! restarts, problems, the winner, the turn's end), so the log reads as the run's story
//! without the streamed text, which stays in `events.jsonl`.

use crate::protocol::{Event, EventMsg};

pub fn trace(event: &Event) {
    let agent = event.agent.as_ref().map_or("-", |agent| agent.as_str());
    let msg = &event.msg;
    if let EventMsg::RunStarted { version, agents } = msg {
        let ids: Vec<&str> = agents.iter().map(|info| info.id.as_str()).collect();
        tracing::info!(version, agents = ?ids, "run started");
    } else if let EventMsg::TurnStarted { agents, mode, .. } = msg {
        tracing::info!(
            turn = event.turn,
            agents = agents.len(),
            ?mode,
            "turn started"
        );
    } else if let EventMsg::PlanningModeDecided {
        irreversible,
        blocked_tools,
    } = msg
    {
        tracing::info!(agent, irreversible, blocked = ?blocked_tools, "planning mode decided");
    } else if let EventMsg::ToolBlocked { tool, .. } = msg {
        tracing::info!(agent, tool, "tool call blocked by planning mode");
    } else if let EventMsg::BroadcastAsked {
        request_id, target, ..
    } = msg
    {
        tracing::info!(agent, request_id, ?target, "question asked");
    } else if let EventMsg::BroadcastClosed {
        request_id,
        timed_out,
        responses,
    } = msg
    {
        tracing::info!(agent, request_id, timed_out, responses, "question closed");
    } else if let EventMsg::PlanUpdated { plan } = msg {
        tracing::info!(
            plan = plan.id,
            status = plan.status.name(),
            tasks = plan.tasks.len(),
            done = plan
                .outcome
                .as_ref()
                .map_or_else(String::new, crate::protocol::PlanOutcome::done_words),
            detail = plan.detail.as_deref().unwrap_or(""),
            "plan status"
        );
    } else if let EventMsg::AnswerSubmitted { label, .. } = msg {
        tracing::info!(agent, %label, "new answer");
    } else if let EventMsg::VoteCast {
        target,
        target_label,
        ..
    } = msg
    {
        tracing::info!(agent, %target, %target_label, "vote");
    } else if let EventMsg::VoteIgnored { target, why, .. } = msg {
        tracing::info!(agent, %target, why, "vote ignored");
    } else if let EventMsg::AgentRestarted { round, reason } = msg {
        tracing::info!(agent, round, reason, "restart");
    } else if let EventMsg::EnforcementRetry {
        attempt, reason, ..
    } = msg
    {
        tracing::info!(agent, attempt, ?reason, "response rejected, retrying");
    } else if let EventMsg::Retrying {
        attempt, reason, ..
    } = msg
    {
        tracing::warn!(agent, attempt, reason, "model call failed, retrying");
    } else if let EventMsg::AgentError { message } = msg {
        tracing::warn!(agent, message, "agent error");
    } else if let EventMsg::AgentKilled { reason } = msg {
        tracing::warn!(agent, reason, "agent dropped for the turn");
    } else if let EventMsg::Timeout { scope, seconds } = msg {
        tracing::warn!(?scope, seconds, "timeout");
    } else if let EventMsg::WinnerSelected { winner, basis, .. } = msg {
        tracing::info!(%winner, ?basis, "winner selected");
    } else if let EventMsg::TurnFinished {
        outcome,
        winner,
        duration_ms,
    } = msg
    {
        let winner = winner.as_ref().map_or("-", |winner| winner.as_str());
        tracing::info!(
            turn = event.turn,
            ?outcome,
            winner,
            duration_ms,
            "turn finished"
        );
    } else if let EventMsg::Warning { message } = msg {
        tracing::warn!(message, "warning");
    }
}
