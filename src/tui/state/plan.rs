//! Plans, task lists and questions as the UI keeps them: each agent's task plan (its tree
//! order, counts and current task worked out when it changes, never per frame), the saved
//! plan of the running or last planning or execute turn, the last listing of saved plans,
//! and the questions agents put to the user that still wait for an answer.

use std::collections::HashMap;

use jiff::Timestamp;

use super::{CardItem, ToolCard, ToolState, UiState, display_tool_name, preview};
use crate::protocol::symbols::{QUESTION, REPLY};
use crate::protocol::{
    AgentId, BroadcastTarget, Event, EventMsg, PlanInfo, PlanStatus, Question, TaskProgress,
    TaskView, current_task,
};

/// A task list in the order the task-plan view shows it, with its counts and current task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskTree {
    /// Every task once: roots in list order, each followed by the tasks under it.
    pub rows: Vec<TreeRow>,
    pub progress: TaskProgress,
    /// Index of the task in progress, else of the first ready one.
    pub current: Option<usize>,
}

/// One row of the tree: which task, how deep, and the task it sits under (its first
/// dependency in the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeRow {
    pub task: usize,
    pub depth: usize,
    pub parent: Option<usize>,
}

impl TaskTree {
    /// A task sits under the first of its dependencies found in the list; tasks without
    /// one are roots. Tasks caught in a dependency cycle become roots where the cycle is
    /// first met, so every task shows exactly once.
    pub fn of(tasks: &[TaskView]) -> Self {
        let index: HashMap<&str, usize> = tasks
            .iter()
            .enumerate()
            .map(|(at, task)| (task.id.as_str(), at))
            .collect();
        let parent: Vec<Option<usize>> = tasks
            .iter()
            .enumerate()
            .map(|(at, task)| {
                task.depends_on.iter().find_map(|dependency| {
                    index
                        .get(dependency.as_str())
                        .copied()
                        .filter(|found| *found != at)
                })
            })
            .collect();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); tasks.len()];
        for (child, parent) in parent.iter().enumerate() {
            if let Some(parent) = parent {
                children[*parent].push(child);
            }
        }
        let mut rows = Vec::with_capacity(tasks.len());
        let mut seen = vec![false; tasks.len()];
        let roots = (0..tasks.len()).filter(|at| parent[*at].is_none());
        let mut stack = Vec::new();
        for root in roots.chain(0..tasks.len()) {
            stack.push(TreeRow {
                task: root,
                depth: 0,
                parent: None,
            });
            while let Some(row) = stack.pop() {
                if std::mem::replace(&mut seen[row.task], true) {
                    continue;
                }
                rows.push(row);
                for child in children[row.task].iter().rev() {
                    stack.push(TreeRow {
                        task: *child,
                        depth: row.depth + 1,
                        parent: Some(row.task),
                    });
                }
            }
        }
        let current = current_task(tasks)
            .and_then(|found| tasks.iter().position(|task| std::ptr::eq(task, found)));
        Self {
            rows,
            progress: TaskProgress::of(tasks),
            current,
        }
    }
}

/// A saved plan and its tasks' tree.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedPlan {
    pub info: PlanInfo,
    pub tree: TaskTree,
}

impl SavedPlan {
    /// A saved plan has a current task only while it is being carried out: before, no
    /// task is under way, and after, its tasks show how execution left them.
    pub fn new(info: PlanInfo) -> Self {
        let mut tree = TaskTree::of(&info.tasks);
        if info.status != PlanStatus::Executing {
            tree.current = None;
        }
        Self { tree, info }
    }
}

/// An agent's question to the user (`ask_others` in human mode) awaiting an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingQuestion {
    pub request_id: String,
    /// Who asked.
    pub asker: Option<AgentId>,
    pub questions: Vec<Question>,
    pub timeout_secs: u64,
    pub asked_at: Timestamp,
}

impl UiState {
    /// Blocked calls, task plans, questions and saved plans (planning mode's decision
    /// only makes a timeline entry).
    pub(super) fn fold_plan(&mut self, event: &Event) {
        let agent = event.agent.as_ref();
        if let EventMsg::BroadcastAnswered { from, answer, .. } = &event.msg
            && let Some(card) = self.agent_mut(agent)
        {
            card.items
                .push(CardItem::Notice(answered(from.as_ref(), answer)));
        }
        if let EventMsg::ToolBlocked {
            call_id,
            tool,
            arguments,
            message,
        } = &event.msg
            && let Some(card) = self.agent_mut(agent)
        {
            card.block_tool(call_id, tool, arguments, message);
        } else if let EventMsg::TaskPlanChanged { tasks } = &event.msg
            && let Some(card) = self.agent_mut(agent)
        {
            card.task_tree = TaskTree::of(tasks);
            card.tasks.clone_from(tasks);
        } else if let EventMsg::BroadcastAsked {
            request_id,
            target,
            questions,
            timeout_secs,
            ..
        } = &event.msg
        {
            if let Some(card) = self.agent_mut(agent) {
                let line = asked(*target, &first_question(questions), questions.len());
                card.items.push(CardItem::Notice(line));
            }
            let known = self
                .questions
                .iter()
                .any(|pending| &pending.request_id == request_id);
            if *target == BroadcastTarget::Human && !known {
                self.questions.push(PendingQuestion {
                    request_id: request_id.clone(),
                    asker: agent.cloned(),
                    questions: questions.clone(),
                    timeout_secs: *timeout_secs,
                    asked_at: event.at,
                });
            }
        } else if let EventMsg::BroadcastAnswered {
            request_id,
            from: None,
            ..
        }
        | EventMsg::BroadcastClosed { request_id, .. } = &event.msg
        {
            self.questions
                .retain(|pending| &pending.request_id != request_id);
        } else if let EventMsg::PlanUpdated { plan } = &event.msg {
            if let Some(outcome) = &plan.outcome {
                for card in self.agents.iter_mut().filter(|card| card.is_winner) {
                    card.plan_outcome = Some(outcome.clone());
                }
            }
            if let Some(listed) = self
                .plans
                .iter_mut()
                .flatten()
                .find(|listed| listed.info.id == plan.id)
            {
                *listed = SavedPlan::new(plan.clone());
            }
            self.plan = Some(SavedPlan::new(plan.clone()));
        } else if let EventMsg::PlansListed { plans } = &event.msg {
            self.plans = Some(plans.iter().cloned().map(SavedPlan::new).collect());
        }
    }
}

/// `📣 asks you: Which database? (+1 more)`, as the asker's card and the timeline say it:
/// the first question's text, and how many more there are.
pub fn asked(target: BroadcastTarget, first: &str, count: usize) -> String {
    let whom = match target {
        BroadcastTarget::Human => "asks you",
        BroadcastTarget::Agents => "asks the agents",
        BroadcastTarget::Off => "asks",
    };
    let more = match count {
        0 | 1 => String::new(),
        count => format!(" (+{} more)", count - 1),
    };
    format!("{QUESTION} {whom}: {first}{more}")
}

/// `💬 you answered: A checklist`, under the question in the asker's card.
pub fn answered(from: Option<&AgentId>, answer: &str) -> String {
    let who = from.map_or_else(|| "you".to_string(), ToString::to_string);
    let answer = if answer.trim().is_empty() {
        "(no answer)".to_string()
    } else {
        preview(answer, 200)
    };
    format!("{REPLY} {who} answered: {answer}")
}

/// The first question's text, as one short line.
pub(super) fn first_question(questions: &[Question]) -> String {
    questions
        .first()
        .map_or_else(String::new, |question| preview(&question.text, 120))
}

impl super::AgentCard {
    /// A call planning mode kept from running: the running card of that call if there is
    /// one, else a new card.
    fn block_tool(&mut self, call_id: &str, tool: &str, arguments: &str, message: &str) {
        let blocked = ToolState::Blocked {
            message: message.to_string(),
        };
        if let Some(card) = self.tool_mut(call_id) {
            let was_running = card.state == ToolState::Running;
            card.state = blocked;
            if was_running {
                self.running_tools = self.running_tools.saturating_sub(1);
            }
            return;
        }
        self.items.push(CardItem::Tool(ToolCard {
            call_id: call_id.to_string(),
            name: display_tool_name(tool),
            arguments: arguments.to_string(),
            state: blocked,
        }));
    }
}
