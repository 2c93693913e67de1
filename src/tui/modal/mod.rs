//! Modals: a stack of full views over the main screen (`Esc` closes the top one; the
//! composer and cards keep their state underneath). Each modal's content is a pure
//! function of the folded state (and, for a question, the view's form), drawn scrolled in
//! a centred frame; the planning options are a small popover over the mode bar instead.

mod agents;
#[cfg(test)]
mod agents_tests;
mod approval;
#[cfg(test)]
mod approval_snapshots;
mod approvals;
mod chrome;
mod consensus;
#[cfg(test)]
mod consensus_tests;
mod content;
mod context;
mod costs;
mod debate;
mod events;
mod files;
mod grid;
mod help;
#[cfg(test)]
mod help_history_tests;
mod history;
mod metrics;
mod overrides;
mod plan_list;
mod plans;
mod question;
mod servers;
mod skills;
#[cfg(test)]
mod skills_tests;
mod tasks;
#[cfg(test)]
mod tests;
mod turns;
#[cfg(test)]
mod view_snapshots;
#[cfg(test)]
mod vote_tests;

pub use overrides::{chosen as override_choice, first_choice as first_override_choice};
pub use plan_list::{latest_runnable, listed_plan, selector_row, selector_rows};
pub use turns::inspect_scroll;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};

use crate::tui::choices::{NextQuestion, OPTION_ROWS};
use crate::tui::render::paint::clear_for_overlay;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::{ModalKind, View};
use chrome::{fits_content, frame_for, hint, title};

/// Draws the top modal of the view's stack, if any, over whatever is on screen; the
/// planning options popover sits just above `mode_bar`.
pub fn render(
    view: &View,
    state: &UiState,
    next: &NextQuestion,
    theme: &Theme,
    frame: &mut Frame,
    mode_bar: Rect,
) {
    let Some(modal) = view.modals.stack.last() else {
        return;
    };
    let mut area = frame_for(modal.kind, frame.area(), mode_bar);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.accent())
        .title(Span::styled(title(modal.kind, state), theme.accent()))
        .title_bottom(Line::styled(hint(modal.kind, state, view), theme.dim()).right_aligned());
    let inner = block.inner(area);
    let height = usize::from(inner.height);
    let (lines, furthest) = content::page(
        *modal,
        state,
        view,
        next,
        theme,
        usize::from(inner.width),
        height,
    );
    view.modals.scroll_max.set(furthest);
    if fits_content(modal.kind) && lines.len() < height {
        // A short question or plan list gets a frame its size, still centred.
        let shrunk = u16::try_from(lines.len()).unwrap_or(inner.height) + 2;
        area.y += (area.height - shrunk) / 2;
        area.height = shrunk;
    }
    clear_for_overlay(frame.buffer_mut(), area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
    view.hits.borrow_mut().modal = Some(area);
}

/// The item ← → steps through in `kind` and how many there are, in the modals that have
/// one.
pub fn selection<'a>(kind: &'a mut ModalKind, state: &UiState) -> Option<(&'a mut usize, usize)> {
    match kind {
        ModalKind::Answers { selected } => Some((selected, answer_count(state))),
        ModalKind::Tools { agent, selected } => Some((selected, tool_count(state, *agent))),
        ModalKind::Turns { selected } => Some((selected, state.turns.len())),
        ModalKind::PlanSelector { selected } => Some((selected, selector_rows(state))),
        ModalKind::PlanOptions { row } => Some((row, OPTION_ROWS)),
        ModalKind::Override { selected } => Some((selected, overrides::choices(state).len())),
        ModalKind::PlanApproval
        | ModalKind::TaskPlan { .. }
        | ModalKind::Question
        | ModalKind::Approval
        | ModalKind::Approvals
        | ModalKind::Help
        | ModalKind::Votes
        | ModalKind::Debate
        | ModalKind::ConsensusMap
        | ModalKind::Costs
        | ModalKind::Timeline
        | ModalKind::AgentOutput { .. }
        | ModalKind::Status
        | ModalKind::Servers
        | ModalKind::Skills
        | ModalKind::Files { .. }
        | ModalKind::Coordination
        | ModalKind::Events { .. }
        | ModalKind::Context
        | ModalKind::Metrics
        | ModalKind::History
        | ModalKind::Agents => None,
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
