//! The stack of open modals as the view holds it: which view each modal shows
//! ([`ModalKind`], with the item it has chosen) and how far it is scrolled. What a modal
//! draws, and how many items it can step through, are `tui::modal`'s.

use crate::tui::files::FilesSource;

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
}
