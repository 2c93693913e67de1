//! The timeline entries of planning: planning mode's decision and the calls it blocks,
//! questions broadcast with `ask_others` and their replies, and saved plans changing status.

use crate::protocol::{AgentId, BroadcastTarget, PlanInfo, Question};
use crate::tui::state::items::display_tool_name;
use crate::tui::state::plan::first_question;
use crate::tui::state::timeline::{EntryKind, preview};

pub(super) fn planning_mode(irreversible: bool, blocked_tools: &[String]) -> EntryKind {
    EntryKind::PlanningMode {
        irreversible,
        blocked: blocked_tools.len(),
    }
}

pub(super) fn blocked(tool: &str) -> EntryKind {
    EntryKind::ToolBlocked {
        tool: display_tool_name(tool, None),
    }
}

pub(super) fn asked(target: BroadcastTarget, questions: &[Question]) -> EntryKind {
    EntryKind::QuestionAsked {
        target,
        text: first_question(questions),
        count: questions.len(),
    }
}

pub(super) fn answered(from: Option<&AgentId>, answer: &str) -> EntryKind {
    EntryKind::QuestionAnswered {
        from: from.cloned(),
        answer: preview(answer, 120),
    }
}

pub(super) fn closed(timed_out: bool, responses: u32) -> EntryKind {
    EntryKind::QuestionClosed {
        timed_out,
        responses,
    }
}

pub(super) fn plan(plan: &PlanInfo) -> EntryKind {
    EntryKind::Plan {
        id: plan.id.clone(),
        status: plan.status,
        tasks: plan.tasks.len(),
        detail: plan.detail.clone(),
        divergence: plan.divergence,
        outcome: plan.outcome.clone(),
    }
}
