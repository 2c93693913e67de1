//! Modals: a stack of full views over the main screen (`Esc` closes the top one; the
//! composer and cards keep their state underneath). Each modal's content is a pure
//! function of the folded state (and, for a question, the view's form), drawn scrolled in
//! a centred frame; the planning options are a small popover over the mode bar instead.

mod agents;
pub mod agents_form;
#[cfg(test)]
mod agents_tests;
mod content;
mod context;
mod costs;
mod events;
mod files;
mod grid;
mod help;
mod history;
mod metrics;
mod overrides;
mod plans;

pub use plans::{latest_runnable, listed_plan, selector_row, selector_rows};
#[cfg(test)]
mod help_history_tests;
mod question;
mod servers;
mod tasks;
#[cfg(test)]
mod tests;
mod turns;
#[cfg(test)]
mod view_snapshots;
#[cfg(test)]
mod vote_tests;

use std::ops::Range;

pub use context::{ContextInfo, CwdMode};
pub use overrides::{chosen as override_choice, first_choice as first_override_choice};
pub use turns::inspect_scroll;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};

use crate::tui::choices::OPTION_ROWS;
use crate::tui::files::FilesSource;
use crate::tui::render::{View, plural};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

/// Which view a modal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModalKind {
    Help,
    Votes,
    Costs,
    /// Every answer of the turn; `selected` is an index into them.
    Answers {
        selected: usize,
    },
    Timeline,
    /// One agent's whole output.
    AgentOutput {
        agent: usize,
    },
    Status,
    /// The coordination table: agents as columns, coordination events as rows.
    Coordination,
    /// One agent's tool calls in full; `selected` indexes them.
    Tools {
        agent: usize,
        selected: usize,
    },
    /// The session's turns (`/inspect`); `selected` indexes them, newest last.
    Turns {
        selected: usize,
    },
    /// The coordination events of the last `turns` turns (`/events`; `usize::MAX`: all).
    Events {
        turns: usize,
    },
    /// Every agent's MCP servers.
    Servers,
    /// An agent's files: ← → agent, Tab which directory, ↑ ↓ file.
    Files {
        agent: usize,
        source: FilesSource,
        selected: usize,
    },
    /// The planning options popover: depth, human feedback, auto-execute (`row` chosen).
    PlanOptions {
        row: usize,
    },
    /// The plan a planning turn just made: execute it now or keep it.
    PlanApproval,
    /// Which saved plan Execute runs: 0 is the newest ("Latest (auto)"), then the newest
    /// plans by name.
    PlanSelector {
        selected: usize,
    },
    /// A task list as a dependency tree.
    TaskPlan {
        source: TaskSource,
    },
    /// An agent's question to the user (what was chosen and typed is the view's form).
    Question,
    /// `/context`: the paths agents may read and write.
    Context,
    /// `/metrics`: model and tool call metrics per agent and per tool.
    Metrics,
    /// `/history`: every finished turn's question and final answer.
    History,
    /// The answers browser in override mode (Ctrl+O): Enter picks the final answer.
    Override {
        selected: usize,
    },
    /// The agents view (`/agents`, `--quickstart`): its form is the view's.
    Agents,
}

/// Whose tasks the task-plan view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskSource {
    /// The agent at this index, live.
    Agent(usize),
    /// The listed plan at this index (the plan selector's `v`).
    Listed(usize),
}

/// Plans the selector offers besides "Latest (auto)", as MassGen does.
pub const SELECTOR_PLANS: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modal {
    pub kind: ModalKind,
    /// Lines scrolled down from the top.
    pub scroll: usize,
}

impl Modal {
    pub fn new(kind: ModalKind) -> Self {
        Self { kind, scroll: 0 }
    }

    fn title(&self, state: &UiState) -> String {
        match self.kind {
            ModalKind::Help => " Keys and commands ".into(),
            ModalKind::Votes => " Votes ".into(),
            ModalKind::Costs => " Tokens and costs ".into(),
            ModalKind::Answers { .. } => " Answers ".into(),
            ModalKind::Timeline => format!(
                " Timeline · {} ",
                crate::tui::render::plural(state.timeline.len(), "event")
            ),
            ModalKind::AgentOutput { agent } => {
                format!(" Output of {} ", agent_name(state, agent))
            }
            ModalKind::Status => " System status ".into(),
            ModalKind::Servers => " MCP servers ".into(),
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
            ModalKind::Context => " Context paths ".into(),
            ModalKind::Metrics => " Metrics · this session ".into(),
            ModalKind::History => format!(" Conversation · {} ", plural(state.turns.len(), "turn")),
            ModalKind::Override { .. } => " Override: choose the final answer ".into(),
            ModalKind::Agents => " Agents ".into(),
        }
    }
}

/// Draws the top modal of the view's stack, if any, over whatever is on screen; the
/// planning options popover sits just above `mode_bar`.
pub fn render(view: &View, state: &UiState, theme: &Theme, frame: &mut Frame, mode_bar: Rect) {
    let Some(modal) = view.modals.last() else {
        return;
    };
    let mut area = frame_for(modal.kind, frame.area(), mode_bar);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.accent())
        .title(Span::styled(modal.title(state), theme.accent()))
        .title_bottom(Line::styled(hint(modal.kind, state, view), theme.dim()).right_aligned());
    let inner = block.inner(area);
    let height = usize::from(inner.height);
    let (lines, furthest) = content::page(
        modal.kind,
        state,
        view,
        theme,
        usize::from(inner.width),
        modal.scroll,
        height,
    );
    view.modal_scroll_max.set(furthest);
    if fits_content(modal.kind) && lines.len() < height {
        // A short question or plan list gets a frame its size, still centred.
        let shrunk = u16::try_from(lines.len()).unwrap_or(inner.height) + 2;
        area.y += (area.height - shrunk) / 2;
        area.height = shrunk;
    }
    crate::tui::render::clear_for_overlay(frame.buffer_mut(), area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
    view.hits.borrow_mut().modal = Some(area);
}

impl ModalKind {
    /// The item ← → steps through and how many there are, in the modals that have one.
    pub fn selection(&mut self, state: &UiState) -> Option<(&mut usize, usize)> {
        match self {
            Self::Answers { selected } => Some((selected, answer_count(state))),
            Self::Tools { agent, selected } => Some((selected, tool_count(state, *agent))),
            Self::Turns { selected } => Some((selected, state.turns.len())),
            Self::PlanSelector { selected } => Some((selected, selector_rows(state))),
            Self::PlanOptions { row } => Some((row, OPTION_ROWS)),
            Self::Override { selected } => Some((selected, overrides::choices(state).len())),
            Self::PlanApproval
            | Self::TaskPlan { .. }
            | Self::Question
            | Self::Help
            | Self::Votes
            | Self::Costs
            | Self::Timeline
            | Self::AgentOutput { .. }
            | Self::Status
            | Self::Servers
            | Self::Files { .. }
            | Self::Coordination
            | Self::Events { .. }
            | Self::Context
            | Self::Metrics
            | Self::History
            | Self::Agents => None,
        }
    }
}

fn hint(kind: ModalKind, state: &UiState, view: &View) -> &'static str {
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
        ModalKind::Override { .. } => " ← → choose · Enter: final answer · Esc cancel ",
        ModalKind::Agents => agents::hint(view.agents.as_ref()),
        ModalKind::Help
        | ModalKind::Votes
        | ModalKind::Costs
        | ModalKind::Timeline
        | ModalKind::AgentOutput { .. }
        | ModalKind::Status
        | ModalKind::Coordination
        | ModalKind::Servers
        | ModalKind::TaskPlan { .. }
        | ModalKind::Events { .. }
        | ModalKind::Context
        | ModalKind::Metrics
        | ModalKind::History => " ↑↓ PgUp PgDn scroll · Esc close ",
    }
}

/// Modals whose frame shrinks to what they show.
fn fits_content(kind: ModalKind) -> bool {
    matches!(kind, ModalKind::Question | ModalKind::PlanSelector { .. })
}

/// Where a modal is drawn: the popover above the mode bar, questions and the plan
/// selector in a centred frame at most 100 columns wide, the others in a large one.
fn frame_for(kind: ModalKind, area: Rect, mode_bar: Rect) -> Rect {
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
        ModalKind::Question | ModalKind::PlanSelector { .. } => {
            let frame = centred(area, 90, 85);
            let width = frame.width.min(100);
            Rect {
                x: area.x + (area.width - width) / 2,
                width,
                ..frame
            }
        }
        ModalKind::Help
        | ModalKind::Votes
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
        | ModalKind::Files { .. }
        | ModalKind::PlanApproval
        | ModalKind::TaskPlan { .. }
        | ModalKind::Context
        | ModalKind::Metrics
        | ModalKind::History
        | ModalKind::Override { .. }
        | ModalKind::Agents => centred(area, 90, 85),
    }
}

/// How many tool calls of `agent` the tool view can step through.
pub fn tool_count(state: &UiState, agent: usize) -> usize {
    grid::tool_calls(state, agent).len()
}

/// How many answers the answers browser can step through.
pub fn answer_count(state: &UiState) -> usize {
    content::answers(state).len()
}

/// The answers browser's first choice: the answer the turn chose, else the newest.
pub fn answer_to_open(state: &UiState) -> usize {
    content::winning_answer(state).unwrap_or_else(|| answer_count(state).saturating_sub(1))
}

/// The id of the agent at `index`, or nothing.
fn agent_name(state: &UiState, index: usize) -> String {
    state
        .agents
        .get(index)
        .map(|card| card.info.id.to_string())
        .unwrap_or_default()
}

/// The lines from `scroll` on that fit `height`, of `total`: never past the end.
fn window(total: usize, scroll: usize, height: usize) -> Range<usize> {
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

/// Where the answers browser shows `label` of the agent at `agent` (this turn's answers).
pub fn answer_position(
    state: &UiState,
    agent: usize,
    label: &crate::protocol::AnswerLabel,
) -> Option<usize> {
    content::answers(state)
        .iter()
        .position(|(index, shown, _)| *index == agent && *shown == label)
}
