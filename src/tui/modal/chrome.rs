//! A modal's frame: its title, the footer saying what its keys do, where it sits on
//! screen (and whether it shrinks to what it shows), and which of its lines fit inside.

use std::ops::Range;

use ratatui::layout::{Constraint, Flex, Layout, Rect};

use super::plan_list::listed_plan;
use super::{agents, approval, question};
use crate::tui::choices::OPTION_ROWS;
use crate::tui::render::format::plural;
use crate::tui::state::UiState;
use crate::tui::view::{ModalKind, TaskSource, View};

/// The title on a modal's frame.
pub fn title(kind: ModalKind, state: &UiState) -> String {
    match kind {
        ModalKind::Help => " Keys and commands ".into(),
        ModalKind::Votes if crate::tui::render::rankings::shown(state) => {
            crate::tui::render::rankings::title(state).into()
        }
        ModalKind::Votes => " Votes ".into(),
        ModalKind::Debate => " Debate ".into(),
        ModalKind::ConsensusMap => " Consensus map ".into(),
        ModalKind::Costs => " Tokens and costs ".into(),
        ModalKind::Answers { .. } => " Answers ".into(),
        ModalKind::Timeline => format!(" Timeline · {} ", plural(state.timeline.len(), "event")),
        ModalKind::AgentOutput { agent } => {
            format!(" Output of {} ", agent_name(state, agent))
        }
        ModalKind::Status => " System status ".into(),
        ModalKind::Servers => " MCP servers ".into(),
        ModalKind::Skills => " Skills ".into(),
        ModalKind::Files { agent, source, .. } => format!(
            " Files of {} · {} ",
            agent_name(state, agent),
            source.label()
        ),
        ModalKind::Coordination => " Coordination table ".into(),
        ModalKind::Turns { .. } => format!(" Turns of this session · {} ", state.turns.len()),
        ModalKind::Events { turns: usize::MAX } => " Events · all turns ".into(),
        ModalKind::Events { turns } => format!(" Events · last {} ", plural(turns, "turn")),
        ModalKind::Tools { agent, .. } => {
            format!(" Tool calls of {} ", agent_name(state, agent))
        }
        ModalKind::PlanOptions { .. } => " Planning Options ".into(),
        ModalKind::PlanApproval => " Plan Approval ".into(),
        ModalKind::PlanSelector { .. } => " Select Plan ".into(),
        ModalKind::TaskPlan {
            source: TaskSource::Agent(agent),
        } => format!(" Task Plan · {} ", agent_name(state, agent)),
        ModalKind::TaskPlan {
            source: TaskSource::Listed(index),
        } => {
            let id = listed_plan(state, index).map_or("", |plan| plan.info.id.as_str());
            format!(" Task Plan · {id} ")
        }
        ModalKind::Question => " ⏸ An agent asks you ".into(),
        ModalKind::Approval => " ⏸ Approve this tool call? ".into(),
        ModalKind::Approvals => format!(
            " Approvals · {} ",
            plural(state.approvals.decided.len(), "decision")
        ),
        ModalKind::Context => " Context paths ".into(),
        ModalKind::Metrics => " Metrics · this session ".into(),
        ModalKind::History => format!(" Conversation · {} ", plural(state.turns.len(), "turn")),
        ModalKind::Override { .. } => " Override: choose the final answer ".into(),
        ModalKind::Agents => " Agents ".into(),
    }
}

/// The footer: what the modal's keys do.
pub fn hint(kind: ModalKind, state: &UiState, view: &View) -> &'static str {
    match kind {
        ModalKind::Question if question::on_last(state, view) => {
            " ↑↓ option · Space choose · Enter send · Esc skip "
        }
        ModalKind::Files { .. } => {
            " ← → agent · Tab directory · ↑↓ file · PgUp PgDn preview · Esc "
        }
        ModalKind::Answers { .. } | ModalKind::Tools { .. } | ModalKind::Turns { .. } => {
            " ← → choose · ↑↓ PgUp PgDn scroll · Esc close "
        }
        ModalKind::PlanOptions { .. } => " ↑↓ row · ← → change · Enter close ",
        ModalKind::PlanApproval => " Enter: execute plan · Esc: keep it for later ",
        ModalKind::PlanSelector { .. } => " ↑↓ choose · Enter select · v full plan · Esc close ",
        ModalKind::Question => " ↑↓ option · Space choose · Tab/Enter next · Esc skip ",
        ModalKind::Approval => approval::hint(view),
        ModalKind::Override { .. } => " ← → choose · Enter: final answer · Esc cancel ",
        ModalKind::Agents => agents::hint(view.modals.agents.as_ref()),
        ModalKind::Help
        | ModalKind::Votes
        | ModalKind::Debate
        | ModalKind::ConsensusMap
        | ModalKind::Costs
        | ModalKind::Timeline
        | ModalKind::AgentOutput { .. }
        | ModalKind::Status
        | ModalKind::Coordination
        | ModalKind::Servers
        | ModalKind::Skills
        | ModalKind::TaskPlan { .. }
        | ModalKind::Events { .. }
        | ModalKind::Context
        | ModalKind::Metrics
        | ModalKind::Approvals
        | ModalKind::History => " ↑↓ PgUp PgDn scroll · Esc close ",
    }
}

/// Modals whose frame shrinks to what they show.
pub fn fits_content(kind: ModalKind) -> bool {
    matches!(
        kind,
        ModalKind::Question | ModalKind::Approval | ModalKind::PlanSelector { .. }
    )
}

/// Where a modal is drawn: the popover above the mode bar, questions and the plan
/// selector in a centred frame at most 100 columns wide (an approval at most 120), the
/// others in a large one.
pub fn frame_for(kind: ModalKind, area: Rect, mode_bar: Rect) -> Rect {
    match kind {
        ModalKind::PlanOptions { .. } => {
            let height = u16::try_from(OPTION_ROWS).unwrap_or(3) + 2;
            let width = area.width.saturating_sub(2).min(50);
            Rect {
                x: mode_bar.x + 1,
                y: mode_bar.y.saturating_sub(height),
                width,
                height: height.min(mode_bar.y),
            }
        }
        ModalKind::Question | ModalKind::Approval | ModalKind::PlanSelector { .. } => {
            let frame = centred(area, 90, 85);
            let widest = if kind == ModalKind::Approval {
                120
            } else {
                100
            };
            let width = frame.width.min(widest);
            Rect {
                x: area.x + (area.width - width) / 2,
                width,
                ..frame
            }
        }
        ModalKind::Help
        | ModalKind::Votes
        | ModalKind::Debate
        | ModalKind::ConsensusMap
        | ModalKind::Costs
        | ModalKind::Answers { .. }
        | ModalKind::Timeline
        | ModalKind::AgentOutput { .. }
        | ModalKind::Status
        | ModalKind::Coordination
        | ModalKind::Tools { .. }
        | ModalKind::Turns { .. }
        | ModalKind::Events { .. }
        | ModalKind::Servers
        | ModalKind::Skills
        | ModalKind::Files { .. }
        | ModalKind::PlanApproval
        | ModalKind::TaskPlan { .. }
        | ModalKind::Context
        | ModalKind::Metrics
        | ModalKind::History
        | ModalKind::Approvals
        | ModalKind::Override { .. }
        | ModalKind::Agents => centred(area, 90, 85),
    }
}

/// The id of the agent at `index`, or nothing.
pub fn agent_name(state: &UiState, index: usize) -> String {
    state
        .agents
        .get(index)
        .map(|card| card.info.id.to_string())
        .unwrap_or_default()
}

/// The lines from `scroll` on that fit `height`, of `total`: never past the end.
pub fn window(total: usize, scroll: usize, height: usize) -> Range<usize> {
    let start = scroll.min(total.saturating_sub(height));
    start..(start + height).min(total)
}

fn centred(area: Rect, width_percent: u16, height_percent: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Percentage(height_percent)])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Percentage(width_percent)])
        .flex(Flex::Center)
        .areas(row);
    cell
}
