//! Plans, task lists and questions as the UI keeps them: each agent's task plan (its tree
//! order, counts and current task worked out when it changes, never per frame), the saved
//! plan of the running or last planning or execute turn, the last listing of saved plans,
//! and the questions agents put to the user that still wait for an answer.

use std::collections::HashMap;

use jiff::Timestamp;

use super::preview;
use crate::protocol::symbols::{QUESTION, REPLY};
use crate::protocol::{
    AgentId, BroadcastTarget, PlanInfo, PlanStatus, Question, TaskProgress, TaskView, current_task,
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

/// The plans and questions of the session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Planning {
    /// The plan of the running (or last) planning or execute turn.
    pub plan: Option<SavedPlan>,
    /// The saved plans as last listed, newest first (`None` until a listing came).
    pub plans: Option<Vec<SavedPlan>>,
    /// Agents' questions to the user still waiting for an answer, oldest first.
    pub questions: Vec<PendingQuestion>,
}

impl Planning {
    /// A question to the user waits for an answer (once, however often it is announced).
    pub(super) fn asked(&mut self, question: PendingQuestion) {
        let known = self
            .questions
            .iter()
            .any(|pending| pending.request_id == question.request_id);
        if !known {
            self.questions.push(question);
        }
    }

    /// The question `request_id` was answered by the user, or closed.
    pub(super) fn settled(&mut self, request_id: &str) {
        self.questions
            .retain(|pending| pending.request_id != request_id);
    }

    /// A saved plan changed: the turn's plan, and its row in the listing.
    pub(super) fn plan_updated(&mut self, plan: &PlanInfo) {
        if let Some(listed) = self
            .plans
            .iter_mut()
            .flatten()
            .find(|listed| listed.info.id == plan.id)
        {
            *listed = SavedPlan::new(plan.clone());
        }
        self.plan = Some(SavedPlan::new(plan.clone()));
    }

    pub(super) fn listed(&mut self, plans: &[PlanInfo]) {
        self.plans = Some(plans.iter().cloned().map(SavedPlan::new).collect());
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
