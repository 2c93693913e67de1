//! Modals: a stack of full views over the main screen (`Esc` closes the top one; the
//! composer and cards keep their state underneath). Each modal's content is a pure
//! function of the folded state, drawn scrolled in a centred frame.

mod content;
mod costs;
mod events;
mod files;
mod grid;
mod servers;
#[cfg(test)]
mod tests;
mod turns;

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};

use crate::tui::files::{FileListing, FilesSource};
use crate::tui::render::plural;
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
}

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
            ModalKind::Timeline => format!(" Timeline · {} events ", state.timeline.len()),
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
        }
    }
}

/// Draws the top modal of `stack`, if any, over whatever is on screen.
pub fn render(
    stack: &[Modal],
    state: &UiState,
    theme: &Theme,
    frame: &mut Frame,
    scroll_max: &std::cell::Cell<usize>,
    files: &FileListing,
) {
    let Some(modal) = stack.last() else {
        return;
    };
    let area = centred(frame.area(), 90, 85);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.accent())
        .title(Span::styled(modal.title(state), theme.accent()))
        .title_bottom(Line::styled(hint(modal.kind), theme.dim()).right_aligned());
    let inner = block.inner(area);
    let height = usize::from(inner.height);
    let (lines, furthest) = content::page(
        modal.kind,
        state,
        files,
        theme,
        usize::from(inner.width),
        modal.scroll,
        height,
    );
    scroll_max.set(furthest);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

impl ModalKind {
    /// The item ← → steps through and how many there are, in the modals that have one.
    pub fn selection(&mut self, state: &UiState) -> Option<(&mut usize, usize)> {
        match self {
            Self::Answers { selected } => Some((selected, answer_count(state))),
            Self::Tools { agent, selected } => Some((selected, tool_count(state, *agent))),
            Self::Turns { selected } => Some((selected, state.turns.len())),
            Self::Help
            | Self::Votes
            | Self::Costs
            | Self::Timeline
            | Self::AgentOutput { .. }
            | Self::Status
            | Self::Servers
            | Self::Files { .. }
            | Self::Coordination
            | Self::Events { .. } => None,
        }
    }
}

fn hint(kind: ModalKind) -> &'static str {
    match kind {
        ModalKind::Files { .. } => {
            " ← → agent · Tab directory · ↑↓ file · PgUp PgDn preview · Esc "
        }
        ModalKind::Answers { .. } | ModalKind::Tools { .. } | ModalKind::Turns { .. } => {
            " ← → choose · ↑↓ PgUp PgDn scroll · Esc close "
        }
        ModalKind::Help
        | ModalKind::Votes
        | ModalKind::Costs
        | ModalKind::Timeline
        | ModalKind::AgentOutput { .. }
        | ModalKind::Status
        | ModalKind::Coordination
        | ModalKind::Servers
        | ModalKind::Events { .. } => " ↑↓ PgUp PgDn scroll · Esc close ",
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
