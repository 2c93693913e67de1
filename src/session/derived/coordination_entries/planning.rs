//! The entries of planning: planning mode's decision and the calls it blocks, questions
//! broadcast with `ask_others` and their replies, and saved plans changing status.

use serde_json::json;

use crate::protocol::{AgentId, BroadcastTarget, Event, PlanInfo, Question};
use crate::session::derived::coordination::Tracker;

impl Tracker {
    pub(super) fn planning_mode_decided(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        irreversible: bool,
        blocked_tools: &[String],
    ) {
        let details = if irreversible {
            format!("Planning mode: {} tools blocked", blocked_tools.len())
        } else {
            "Planning mode: nothing irreversible, tools run".to_string()
        };
        let context = json!({"has_irreversible": irreversible, "blocked_tools": blocked_tools});
        self.push(event, "planning_mode_decided", agent, details, context);
    }

    pub(super) fn persona_assigned(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        text: &str,
        summary: Option<&str>,
        reused: bool,
    ) {
        let details = format!("Persona: {}", summary.unwrap_or(text));
        let context = json!({"persona_text": text, "approach_summary": summary, "reused": reused});
        self.push(event, "persona_assigned", agent, details, context);
    }

    pub(super) fn tool_blocked(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        tool: &str,
        message: &str,
    ) {
        let details = format!("Refused tool {tool}");
        let context = json!({"tool": tool, "message": message});
        self.push(event, "tool_blocked", agent, details, context);
    }

    pub(super) fn broadcast_asked(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        request_id: &str,
        target: BroadcastTarget,
        questions: &[Question],
        wait: bool,
    ) {
        let first = questions
            .first()
            .map_or("", |question| question.text.as_str());
        let details = format!(
            "Created broadcast: {}...",
            first.chars().take(50).collect::<String>()
        );
        let context = json!({
            "request_id": request_id,
            "question_preview": first.chars().take(100).collect::<String>(),
            "target": target,
            "questions": questions,
            "wait": wait,
        });
        self.push(event, "broadcast_created", agent, details, context);
    }

    /// A reply is the replying agent's entry, or the user's (`from` is `None`).
    pub(super) fn broadcast_answered(
        &mut self,
        event: &Event,
        request_id: &str,
        from: Option<&AgentId>,
        answer: &str,
    ) {
        let from = from.map(ToString::to_string);
        let (kind, details) = match from {
            Some(_) => ("broadcast_response", "Responded to broadcast"),
            None => ("human_broadcast_response", "Human responded to broadcast"),
        };
        let context =
            json!({"request_id": request_id, "is_human": from.is_none(), "answer": answer});
        self.push(event, kind, from.as_deref(), details.into(), context);
    }

    pub(super) fn broadcast_closed(
        &mut self,
        event: &Event,
        request_id: &str,
        timed_out: bool,
        responses: u32,
    ) {
        let (kind, status) = if timed_out {
            ("broadcast_timeout", "timeout")
        } else {
            ("broadcast_complete", "complete")
        };
        let context = json!({"request_id": request_id, "completion_status": status,
                             "responses": responses});
        self.push(event, kind, None, format!("Broadcast {status}"), context);
    }

    pub(super) fn plan_updated(&mut self, event: &Event, agent: Option<&str>, plan: &PlanInfo) {
        let details = format!(
            "Plan {}: {}",
            plan.id,
            json!(plan.status).as_str().unwrap_or("updated")
        );
        let context = json!({"plan_id": plan.id, "status": plan.status,
            "detail": plan.detail, "progress": plan.outcome});
        self.push(event, "plan_status", agent, details, context);
    }
}
