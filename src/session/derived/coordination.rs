//! `coordination_events.json`, in the shape MassGen's code writes it: the session's
//! metadata and one entry per coordination event (answers, votes, restarts, the winner…),
//! each with a unix timestamp, its MassGen event type, the agent and details.

use serde_json::{Value, json};

use crate::protocol::{Event, EventMsg};

pub fn coordination_events(events: &[Event]) -> Value {
    let mut question = String::new();
    let mut agent_ids: Vec<String> = Vec::new();
    let mut winner: Option<String> = None;
    let mut entries = Vec::new();
    for event in events {
        if let EventMsg::TurnStarted {
            question: asked,
            agents,
            ..
        } = &event.msg
        {
            question.clone_from(asked);
            agent_ids = agents.iter().map(|agent| agent.id.to_string()).collect();
        } else if let EventMsg::WinnerSelected { winner: chosen, .. } = &event.msg {
            winner = Some(chosen.to_string());
        }
        if let Some((event_type, details)) = describe(&event.msg) {
            entries.push(json!({
                "timestamp": unix_seconds(event),
                "event_type": event_type,
                "agent_id": event.agent.as_ref().map(ToString::to_string),
                "details": details,
                "context": {"turn": event.turn, "seq": event.seq},
            }));
        }
    }
    json!({
        "session_metadata": {
            "user_prompt": question,
            "agent_ids": agent_ids,
            "start_time": events.first().map(unix_seconds),
            "end_time": events.last().map(unix_seconds),
            "final_winner": winner,
        },
        "events": entries,
    })
}

pub fn unix_seconds(event: &Event) -> f64 {
    unix(event.at)
}

/// Seconds since the Unix epoch, as MassGen's files write times.
pub fn unix(at: jiff::Timestamp) -> f64 {
    at.as_millisecond() as f64 / 1000.0
}

/// The MassGen event type and details of a coordination event; `None` for streaming,
/// usage and other detail that is not coordination.
fn describe(msg: &EventMsg) -> Option<(&'static str, Value)> {
    Some(match msg {
        EventMsg::TurnStarted { question, mode, .. } => {
            ("session_start", json!({"question": question, "mode": mode}))
        }
        EventMsg::TurnFinished {
            outcome,
            winner,
            duration_ms,
        } => (
            "session_end",
            json!({"outcome": outcome, "winner": winner, "duration_ms": duration_ms}),
        ),
        EventMsg::AgentStatus { status } => ("status_change", json!({"status": status})),
        EventMsg::RoundStarted {
            round,
            answers_seen,
            vote_only,
            time_limit,
        } => {
            let mut details =
                json!({"round": round, "available_answers": answers_seen, "vote_only": vote_only});
            if let Some(limit) = time_limit {
                details["time_limit"] = json!(limit);
            }
            ("context_received", details)
        }
        EventMsg::UpdateInjected { labels } => {
            ("update_injected", json!({"answer_labels": labels}))
        }
        EventMsg::FinalOverridden { label, agent, .. } => (
            "final_answer_override",
            json!({"answer_label": label, "agent_id": agent}),
        ),
        EventMsg::RoundTimeLimitReached {
            stage,
            elapsed_secs,
        } => (
            "agent_timeout",
            json!({"scope": "round", "stage": stage, "elapsed_seconds": elapsed_secs}),
        ),
        EventMsg::PostEvaluationStarted {
            attempt,
            max_attempts,
        } => (
            "post_evaluation_start",
            json!({"attempt": attempt, "max_attempts": max_attempts}),
        ),
        EventMsg::PostEvaluationFinished { outcome } => {
            ("post_evaluation_end", json!({"outcome": outcome}))
        }
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            reason,
            instructions,
            ..
        } => (
            "orchestration_restart",
            json!({"attempt": attempt, "max_attempts": max_attempts, "reason": reason,
                   "instructions": instructions}),
        ),
        EventMsg::AgentRestarted { round, reason } => (
            "restart_triggered",
            json!({"round": round, "reason": reason}),
        ),
        EventMsg::AnswerSubmitted {
            label,
            anon_id,
            content,
        } => (
            "new_answer",
            json!({"label": label, "anon_id": anon_id, "content": content}),
        ),
        EventMsg::VoteCast {
            target,
            target_anon,
            target_label,
            reason,
        } => (
            "vote_cast",
            json!({"voted_for": target, "voted_for_anon": target_anon,
                   "voted_for_label": target_label, "reason": reason}),
        ),
        EventMsg::VoteIgnored {
            target,
            reason,
            why,
        } => (
            "vote_ignored",
            json!({"voted_for": target, "reason": reason, "why": why}),
        ),
        EventMsg::WinnerSelected {
            winner,
            winner_anon,
            tally,
            is_tie,
            basis,
        } => (
            "final_agent_selected",
            json!({"winner": winner, "winner_anon": winner_anon, "tally": tally,
                   "is_tie": is_tie, "basis": basis}),
        ),
        EventMsg::FinalPresentationStarted { label } => {
            ("final_round_start", json!({"label": label}))
        }
        EventMsg::FinalPresentationDone {
            label,
            content,
            fallback,
        } => (
            "final_answer",
            json!({"label": label, "content": content, "fallback": fallback}),
        ),
        EventMsg::AgentError { message } => ("agent_error", json!({"message": message})),
        EventMsg::AgentKilled { reason } => ("agent_error", json!({"killed": reason})),
        EventMsg::Timeout { scope, seconds } => {
            ("agent_timeout", json!({"scope": scope, "seconds": seconds}))
        }
        // MassGen has no budget event; its nearest kind keeps its tools reading the file.
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => (
            "agent_timeout",
            json!({"scope": "budget", "budget_usd": budget_usd, "spent_usd": spent_usd}),
        ),
        EventMsg::Cancelled => ("agent_cancelled", json!({})),
        EventMsg::HumanInputDelivered { text } => ("update_injected", json!({"text": text})),
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => (
            "planning_mode_decided",
            json!({"has_irreversible": irreversible, "blocked_tools": blocked_tools}),
        ),
        EventMsg::ToolBlocked { tool, message, .. } => {
            ("tool_blocked", json!({"tool": tool, "message": message}))
        }
        EventMsg::BroadcastAsked {
            request_id,
            target,
            questions,
            wait,
            ..
        } => (
            "broadcast_created",
            json!({"request_id": request_id, "target": target, "questions": questions,
                   "wait": wait}),
        ),
        EventMsg::BroadcastAnswered {
            request_id,
            from,
            answer,
        } => (
            if from.is_some() {
                "broadcast_response"
            } else {
                "human_broadcast_response"
            },
            json!({"request_id": request_id, "responder": from, "answer": answer}),
        ),
        EventMsg::BroadcastClosed {
            request_id,
            timed_out,
            responses,
        } => (
            if *timed_out {
                "broadcast_timeout"
            } else {
                "broadcast_complete"
            },
            json!({"request_id": request_id, "responses": responses}),
        ),
        EventMsg::PlanUpdated { plan } => (
            "plan_status",
            json!({"plan_id": plan.id, "status": plan.status, "detail": plan.detail}),
        ),
        EventMsg::RunStarted { .. }
        | EventMsg::RunFinished
        | EventMsg::AgentsReplaced { .. }
        | EventMsg::HistoryCleared
        | EventMsg::SessionResumed { .. }
        | EventMsg::TextDelta { .. }
        | EventMsg::ReasoningDelta { .. }
        | EventMsg::ToolCallBegin { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::ToolRefused { .. }
        | EventMsg::WorkspaceAssigned { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::ToolCallEnd { .. }
        | EventMsg::ProviderTool(_)
        | EventMsg::EnforcementRetry { .. }
        | EventMsg::Retrying { .. }
        | EventMsg::Usage { .. }
        | EventMsg::RoundUsage { .. }
        | EventMsg::FinalPresentationDelta { .. }
        | EventMsg::HumanInputQueued { .. }
        | EventMsg::Warning { .. }
        | EventMsg::ReplayStarted { .. }
        | EventMsg::ReplayFinished { .. }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlansListed { .. } => return None,
    })
}
