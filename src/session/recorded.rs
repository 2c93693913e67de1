//! A past turn's recorded events cut down to what front ends show of a finished turn: no
//! streamed text, tool arguments or tool output, so a resumed session stays small.

use std::path::Path;

use super::event_lines::EventLines;
use crate::bounded_file::MIB;
use crate::protocol::{ApprovalEvent, Event, EventMsg};

/// The most of a resumed session's compacted events kept, all its turns together: far more
/// than its finished turns show.
pub const RECORDED_MAX: u64 = 64 * MIB;

/// The events of `turn` in `<log_dir>/events.jsonl`, compacted, read one line at a time;
/// none when the log cannot be read, and what was read before a damaged line or before
/// `budget` (bytes of compacted events, shared by a session's turns) ran out. A torn last
/// line (a killed run) is left out.
pub fn recorded_turn(log_dir: &Path, turn: u32, budget: &mut u64) -> Vec<Event> {
    let path = log_dir.join("events.jsonl");
    let mut events = Vec::new();
    let Ok(mut lines) = EventLines::open(&path) else {
        return events;
    };
    loop {
        let event = match lines.next_event() {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(error) => {
                tracing::warn!(%error, "a past turn's event log was read only in part");
                break;
            }
        };
        if event.turn != turn {
            continue;
        }
        let Some(event) = compact(event) else {
            continue;
        };
        let Some(left) = budget.checked_sub(shown_bytes(&event)) else {
            tracing::warn!(path = %path.display(), "a resumed session's events were cut at {} MiB", RECORDED_MAX / MIB);
            *budget = 0;
            break;
        };
        *budget = left;
        events.push(event);
    }
    events
}

/// The size of `event` as JSON, which is about what it holds.
fn shown_bytes(event: &Event) -> u64 {
    struct Counter(u64);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    let _ = serde_json::to_writer(&mut counter, event);
    counter.0
}

/// The event as a finished turn needs it, or nothing for streaming and live-only news.
pub(crate) fn compact(mut event: Event) -> Option<Event> {
    match &mut event.msg {
        EventMsg::ToolCallEnd { output, .. } => output.clear(),
        EventMsg::ProviderTool(call) => call.output.clear(),
        EventMsg::Approval(ApprovalEvent::Asked(request)) => {
            request.arguments.clear();
            request.diff = None;
        }
        EventMsg::Approval(ApprovalEvent::Decided(_)) => {}
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
        | EventMsg::SkillsListed { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::HumanInputDelivered { .. } => return None,
        EventMsg::TurnStarted { .. }
        | EventMsg::TurnFinished { .. }
        | EventMsg::Strategy(_)
        | EventMsg::RoundStarted { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::AttachmentsSent { .. }
        | EventMsg::ToolRefused { .. }
        | EventMsg::AnswerSubmitted { .. }
        | EventMsg::VoteCast { .. }
        | EventMsg::VoteIgnored { .. }
        | EventMsg::ChecklistSubmitted { .. }
        | EventMsg::ApproachDrafted { .. }
        | EventMsg::CriteriaSet { .. }
        | EventMsg::PlanningModeDecided { .. }
        | EventMsg::PersonaAssigned { .. }
        | EventMsg::ToolBlocked { .. }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::BroadcastAsked { .. }
        | EventMsg::BroadcastAnswered { .. }
        | EventMsg::BroadcastClosed { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::AgentRestarted { .. }
        | EventMsg::UpdateInjected { .. }
        | EventMsg::FairnessHold { .. }
        | EventMsg::FairnessReleased
        | EventMsg::FinalOverridden { .. }
        | EventMsg::RoundTimeLimitReached { .. }
        | EventMsg::ContextUsage { .. }
        | EventMsg::ContextCompressed { .. }
        | EventMsg::SubtasksAssigned { .. }
        | EventMsg::AgentStopped { .. }
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
        | EventMsg::AnswerNow { .. }
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
                    category: None,
                },
            ),
            event(3, EventMsg::Cancelled),
        ] {
            log.append(&written).unwrap();
        }
        let mut budget = RECORDED_MAX;
        let events = recorded_turn(dir.path(), 2, &mut budget);
        assert!(budget < RECORDED_MAX);
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0], kept);
        assert!(
            matches!(&events[1].msg, EventMsg::ToolCallEnd { output, ok: true, .. } if output.is_empty())
        );
    }

    #[test]
    fn a_missing_log_gives_no_events() {
        let dir = tempfile::tempdir().unwrap();
        assert!(recorded_turn(&dir.path().join("gone"), 1, &mut RECORDED_MAX.clone()).is_empty());
    }
}
