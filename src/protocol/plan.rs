//! Plans and questions as front ends see them: task plans and their tasks, saved plans
//! (`.massgen/plans/`), how a question asks to be run (depth, broadcast, single agent,
//! refinement), and questions agents ask with `ask_others`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::ids::AgentId;

/// How many tasks a plan aims for (`--plan-depth`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanDepth {
    /// 5–10 tasks.
    Shallow,
    /// 20–50 tasks.
    #[default]
    Medium,
    /// 100–200 or more tasks.
    Deep,
}

impl PlanDepth {
    pub const NAMES: [&'static str; 3] = ["shallow", "medium", "deep"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "shallow" => Some(Self::Shallow),
            "medium" => Some(Self::Medium),
            "deep" => Some(Self::Deep),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Shallow => "shallow",
            Self::Medium => "medium",
            Self::Deep => "deep",
        }
    }

    /// The task count the planning prompt aims for, as MassGen words it.
    pub fn target(self) -> &'static str {
        match self {
            Self::Shallow => "5-10",
            Self::Medium => "20-50",
            Self::Deep => "100-200+",
        }
    }
}

/// Whom agents may ask with `ask_others` (`coordination.broadcast`, `--broadcast`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BroadcastTarget {
    /// No `ask_others` tool.
    #[default]
    Off,
    /// The other agents answer.
    Agents,
    /// The user answers.
    Human,
}

impl BroadcastTarget {
    pub const NAMES: [&'static str; 3] = ["human", "agents", "false"];

    /// `human`, `agents`, or `false`/`off`/`none` for no broadcast.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "human" => Some(Self::Human),
            "agents" => Some(Self::Agents),
            "false" | "off" | "none" | "no" | "disabled" => Some(Self::Off),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Off => "false",
            Self::Agents => "agents",
            Self::Human => "human",
        }
    }
}

/// How a question asks to be run, besides its text and mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TurnOptions {
    /// Planning: how many tasks to aim for.
    pub plan_depth: PlanDepth,
    /// Whom agents may ask; `None` keeps the config's `coordination.broadcast` (planning
    /// turns default to asking the human, as MassGen does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broadcast: Option<BroadcastTarget>,
    /// Planning: execute the plan as soon as it is ready (`--plan-and-execute`).
    pub auto_execute: bool,
    /// Execute: the plan to run, by id, path or `latest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// Only this agent works on the question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub single_agent: Option<AgentId>,
    /// Agents refine each other's answers and vote (on), or each answers once (off).
    pub refine: bool,
    /// How agents reach the answer; `None` keeps the config's `orchestrator.strategy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<super::strategy::Strategy>,
}

impl Default for TurnOptions {
    fn default() -> Self {
        Self {
            plan_depth: PlanDepth::Medium,
            broadcast: None,
            auto_execute: false,
            plan: None,
            single_agent: None,
            refine: true,
            strategy: None,
        }
    }
}

/// Where a task stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    #[default]
    Pending,
    InProgress,
    Completed,
    Verified,
    Blocked,
}

impl TaskStatus {
    pub const NAMES: [&'static str; 5] =
        ["pending", "in_progress", "completed", "verified", "blocked"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "pending" => Some(Self::Pending),
            "in_progress" => Some(Self::InProgress),
            "completed" => Some(Self::Completed),
            "verified" => Some(Self::Verified),
            "blocked" => Some(Self::Blocked),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
            Self::Verified => "verified",
            Self::Blocked => "blocked",
        }
    }

    /// Completed or verified: dependants may start.
    pub fn is_done(self) -> bool {
        matches!(self, Self::Completed | Self::Verified)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskPriority {
    Low,
    #[default]
    Medium,
    High,
}

impl TaskPriority {
    pub const NAMES: [&'static str; 3] = ["low", "medium", "high"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "low" => Some(Self::Low),
            "medium" => Some(Self::Medium),
            "high" => Some(Self::High),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
        }
    }
}

/// One task as front ends show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskView {
    pub id: String,
    pub description: String,
    pub status: TaskStatus,
    pub priority: TaskPriority,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
}

/// Counts of a task list by status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskProgress {
    pub total: usize,
    /// Completed or verified.
    pub done: usize,
    pub in_progress: usize,
    pub pending: usize,
    pub blocked: usize,
}

impl TaskProgress {
    pub fn of(tasks: &[TaskView]) -> Self {
        let mut progress = Self {
            total: tasks.len(),
            ..Self::default()
        };
        for task in tasks {
            match task.status {
                TaskStatus::Completed | TaskStatus::Verified => progress.done += 1,
                TaskStatus::InProgress => progress.in_progress += 1,
                TaskStatus::Pending => progress.pending += 1,
                TaskStatus::Blocked => progress.blocked += 1,
            }
        }
        progress
    }
}

/// The task in progress, else the first pending one whose dependencies are done.
pub fn current_task(tasks: &[TaskView]) -> Option<&TaskView> {
    tasks
        .iter()
        .find(|task| task.status == TaskStatus::InProgress)
        .or_else(|| {
            tasks.iter().find(|task| {
                task.status == TaskStatus::Pending
                    && task.depends_on.iter().all(|dependency| {
                        tasks
                            .iter()
                            .any(|other| &other.id == dependency && other.status.is_done())
                    })
            })
        })
}

/// Where a saved plan stands (`plan_metadata.json`'s `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    /// Agents are writing it.
    Planning,
    /// Finalised: `frozen/plan.json` holds it.
    Ready,
    Executing,
    /// Every task is completed or verified.
    Completed,
    /// Execution ended with tasks left open (MassGen's `resumable` on disk): it may run
    /// again.
    Partial,
    Failed,
}

impl PlanStatus {
    pub fn name(self) -> &'static str {
        match self {
            Self::Planning => "planning",
            Self::Ready => "ready",
            Self::Executing => "executing",
            Self::Completed => "completed",
            Self::Partial => "partial",
            Self::Failed => "failed",
        }
    }
}

/// A saved plan as front ends list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanInfo {
    /// `plan_<YYYYMMDD_HHMMSS_ffffff>`.
    pub id: String,
    #[serde(serialize_with = "super::lossy_path::serialize")]
    pub dir: PathBuf,
    pub status: PlanStatus,
    /// The question the plan was made for.
    pub prompt: String,
    /// When planning started (RFC 3339).
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<TaskView>,
    /// Why it failed, or how execution diverged from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// `plan_diff.json`'s `divergence_score`, once executed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divergence: Option<f64>,
    /// How far execution got, once executed (then `tasks` hold their final states).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<super::PlanOutcome>,
}

/// One choice of a structured question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionOption {
    pub id: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// One question of an `ask_others` call: free text when it has no options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<QuestionOption>,
    #[serde(default)]
    pub multi_select: bool,
    #[serde(default = "yes")]
    pub required: bool,
}

fn yes() -> bool {
    true
}

/// The user's reply to one question: the chosen option ids and any text typed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionReply {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selected: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, status: TaskStatus, depends_on: &[&str]) -> TaskView {
        TaskView {
            id: id.into(),
            description: id.into(),
            status,
            priority: TaskPriority::Medium,
            depends_on: depends_on.iter().map(|id| (*id).to_string()).collect(),
        }
    }

    #[test]
    fn progress_counts_and_the_current_task() {
        let tasks = vec![
            task("a", TaskStatus::Verified, &[]),
            task("b", TaskStatus::Pending, &["c"]),
            task("c", TaskStatus::Pending, &["a"]),
        ];
        let progress = TaskProgress::of(&tasks);
        assert_eq!((progress.total, progress.done, progress.pending), (3, 1, 2));
        assert_eq!(current_task(&tasks).map(|task| task.id.as_str()), Some("c"));
        let mut working = tasks.clone();
        working[1].status = TaskStatus::InProgress;
        assert_eq!(
            current_task(&working).map(|task| task.id.as_str()),
            Some("b")
        );
    }

    #[test]
    fn turn_options_default_to_refining_with_every_agent() {
        let options: TurnOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(options, TurnOptions::default());
        assert!(options.refine);
        assert_eq!(
            BroadcastTarget::from_name("False"),
            Some(BroadcastTarget::Off)
        );
    }
}
