//! The open modals as the view holds them: the stack (which view each modal shows, with
//! the item it has chosen, and how far it is scrolled) and what the modals show beyond the
//! folded state (the question and agents forms, the workspace listing, whether the saved
//! plans are loading). What a modal draws, and how many items it can step through, are
//! `tui::modal`'s.

use std::cell::Cell;

use crate::tui::agents_form::AgentsForm;
use crate::tui::approval::ApprovalForm;
use crate::tui::files::{FileListing, FilesSource};
use crate::tui::question::QuestionForm;

#[derive(Clone, Debug, Default)]
pub struct Modals {
    /// Open modals, the top one last.
    pub stack: Vec<Modal>,
    /// The furthest the top modal can scroll, as the last frame found.
    pub scroll_max: Cell<usize>,
    /// The open question modal's form.
    pub question: Option<QuestionForm>,
    /// The open approval view's form.
    pub approval: Option<ApprovalForm>,
    /// The agents view's form while it is open.
    pub agents: Option<AgentsForm>,
    /// What the workspace browser shows, read when it opened or its choice changed.
    pub files: FileListing,
    /// The saved plans were asked for and the listing has not come yet.
    pub plans_loading: bool,
}

impl Modals {
    /// The view the top modal shows, if one is open.
    pub fn top(&self) -> Option<ModalKind> {
        self.stack.last().map(|modal| modal.kind)
    }

    pub fn top_mut(&mut self) -> Option<&mut Modal> {
        self.stack.last_mut()
    }

    pub fn open(&mut self, kind: ModalKind) {
        self.stack.push(Modal::new(kind));
    }

    /// `Esc`: the top modal closes; the one under it, if any, is on top again.
    pub fn close_top(&mut self) {
        self.stack.pop();
    }

    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

/// Which view a modal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModalKind {
    Help,
    Votes,
    /// The consensus map: each agent's latest answer and state, the vote arrows, the
    /// leader or the winner.
    ConsensusMap,
    /// A debate turn as a thread per round: each member's critique, then its revision.
    Debate,
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
    /// `/skills`: the skills agents are told about.
    Skills,
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
    /// A tool call waiting for the user's approval (which one is the view's form).
    Approval,
    /// `/approvals`: the session's decisions about tool calls, newest last.
    Approvals,
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
