//! A past turn's recorded events cut down to what front ends show of a finished turn: no
//! streamed text, tool arguments or tool output, so a resumed session stays small.

use std::path::Path;

use crate::protocol::{Event, EventMsg};

/// The events of `turn` in `<log_dir>/events.jsonl`, compacted; none when the log cannot be
/// read. A torn last line (a killed run) is left out.
pub fn recorded_turn(log_dir: &Path, turn: u32) -> Vec<Event> {
    let mut events = Vec::new();
    let read = super::event_log::each_event(&log_dir.join("events.jsonl"), |event| {
        if event.turn == turn
            && let Some(event) = compact(event)
        {
            events.push(event);
        }
    });
    if read.is_err() {
        return Vec::new();
    }
    events
}

/// The event as a finished turn needs it, or nothing for streaming and live-only news.
pub(crate) fn compact(mut event: Event) -> Option<Event> {
    match &mut event.msg {
        EventMsg::ToolCallEnd { output, .. } => output.clear(),
        EventMsg::ProviderTool(call) => call.output.clear(),
        EventMsg::TextDelta { .. }
        | EventMsg::ReasoningDelta { .. }
        | EventMsg::FinalPresentationDelta { .. }
        | EventMsg::ToolCallBegin { .. }
        | EventMsg::AgentStatus { .. }
        | EventMsg::RoundUsage { .. }
        | EventMsg::RunStarted { .. }
        | EventMsg::RunFinished
        | EventMsg::AgentsReplaced { .. }
        | EventMsg::HistoryCleared
        | EventMsg::ReplayStarted { .. }
        | EventMsg::ReplayFinished { .. }
        | EventMsg::SessionResumed { .. }
        | EventMsg::WorkspaceAssigned { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::HumanInputDelivered { .. } => return None,
        EventMsg::TurnStarted { .. }
        | EventMsg::TurnFinished { .. }
        | EventMsg::RoundStarted { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::ToolRefused { .. }
        | EventMsg::AnswerSubmitted { .. }
        | EventMsg::VoteCast { .. }
        | EventMsg::VoteIgnored { .. }
        | EventMsg::PlanningModeDecided { .. }
        | EventMsg::ToolBlocked { .. }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::BroadcastAsked { .. }
        | EventMsg::BroadcastAnswered { .. }
        | EventMsg::BroadcastClosed { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::AgentRestarted { .. }
        | EventMsg::UpdateInjected { .. }
        | EventMsg::FinalOverridden { .. }
        | EventMsg::RoundTimeLimitReached { .. }
        | EventMsg::PostEvaluationStarted { .. }
        | EventMsg::PostEvaluationFinished { .. }
        | EventMsg::OrchestrationRestarted { .. }
        | EventMsg::EnforcementRetry { .. }
        | EventMsg::Retrying { .. }
        | EventMsg::AgentError { .. }
        | EventMsg::AgentKilled { .. }
        | EventMsg::Usage { .. }
        | EventMsg::WinnerSelected { .. }
        | EventMsg::FinalPresentationStarted { .. }
        | EventMsg::FinalPresentationDone { .. }
        | EventMsg::Timeout { .. }
        | EventMsg::BudgetReached { .. }
        | EventMsg::Cancelled
        | EventMsg::HumanInputQueued { .. }
        | EventMsg::Warning { .. } => {}
    }
    Some(event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentId, Usage};
    use crate::session::event_log::EventLog;

    fn event(turn: u32, msg: EventMsg) -> Event {
        Event {
            seq: 1,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn,
            agent: Some(AgentId::new("a")),
            msg,
        }
    }

    #[test]
    fn a_recorded_turn_keeps_coordination_and_usage_and_drops_streaming() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = EventLog::open(&dir.path().join("events.jsonl")).unwrap();
        let kept = event(
            2,
            EventMsg::Usage {
                usage: Usage::default(),
                cost_usd: Some(0.5),
                timing: None,
            },
        );
        for written in [
            event(2, EventMsg::TextDelta { text: "Par".into() }),
            kept.clone(),
            event(
                2,
                EventMsg::ToolCallEnd {
                    call_id: "c1".into(),
                    tool: "read_file".into(),
                    ok: true,
                    output: "a long file".into(),
                    duration_ms: 30,
                },
            ),
            event(3, EventMsg::Cancelled),
        ] {
            log.append(&written).unwrap();
        }
        let events = recorded_turn(dir.path(), 2);
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0], kept);
        assert!(
            matches!(&events[1].msg, EventMsg::ToolCallEnd { output, ok: true, .. } if output.is_empty())
        );
    }

    #[test]
    fn a_missing_log_gives_no_events() {
        let dir = tempfile::tempdir().unwrap();
        assert!(recorded_turn(&dir.path().join("gone"), 1).is_empty());
    }
}
