//! Fixtures for the planning tests: a seven-task plan (fresh or mid-execution), saved plans,
//! and agents' questions (structured with options, or free text).

use crate::protocol::{
    BroadcastTarget, EventMsg, Mode, PlanInfo, PlanStatus, Question, QuestionOption, TaskPriority,
    TaskStatus, TaskView, TurnOptions,
};

pub const PLAN_ID: &str = "plan_20261124_174012_123456";

pub fn task(
    id: &str,
    description: &str,
    status: TaskStatus,
    priority: TaskPriority,
    depends_on: &[&str],
) -> TaskView {
    TaskView {
        id: id.into(),
        description: description.into(),
        status,
        priority,
        depends_on: depends_on.iter().map(|id| (*id).to_string()).collect(),
    }
}

/// Seven tasks of a notes service: two done (one verified), one in progress, one blocked.
pub fn tasks_mid_execution() -> Vec<TaskView> {
    use TaskPriority::{High, Low, Medium};
    use TaskStatus::{Blocked, Completed, InProgress, Pending, Verified};
    vec![
        task("T001", "Set up the project skeleton", Verified, High, &[]),
        task(
            "T002",
            "Draft the data model for notes and users",
            Completed,
            Medium,
            &["T001"],
        ),
        task(
            "T003",
            "Write the storage layer on SQLite",
            InProgress,
            High,
            &["T002"],
        ),
        task(
            "T004",
            "Build the REST endpoints",
            Pending,
            Medium,
            &["T003"],
        ),
        task(
            "T005",
            "Add token authentication",
            Blocked,
            High,
            &["T002", "T004"],
        ),
        task(
            "T006",
            "Write the command-line client",
            Pending,
            Medium,
            &["T001"],
        ),
        task(
            "T007",
            "Document the API with examples",
            Pending,
            Low,
            &["T004", "T006"],
        ),
    ]
}

/// The same tasks, none started.
pub fn tasks_fresh() -> Vec<TaskView> {
    tasks_mid_execution()
        .into_iter()
        .map(|task| TaskView {
            status: TaskStatus::Pending,
            ..task
        })
        .collect()
}

pub fn plan(id: &str, status: PlanStatus, tasks: Vec<TaskView>) -> PlanInfo {
    PlanInfo {
        id: id.into(),
        dir: format!(".massgen/plans/{id}").into(),
        status,
        prompt: "Build a small REST service for notes, with a command-line client, token \
                 authentication and documented endpoints; keep it to the standard library where \
                 that is reasonable."
            .into(),
        created_at: "2026-11-24T17:40:12+01:00".into(),
        tasks,
        detail: None,
        divergence: None,
        outcome: None,
    }
}

/// Three saved plans, newest first: ready, completed, failed.
pub fn listed_plans() -> Vec<PlanInfo> {
    let mut failed = plan(
        "plan_20261120_090500_000001",
        PlanStatus::Failed,
        tasks_fresh(),
    );
    failed.detail = Some("no agent wrote project_plan.json".into());
    vec![
        plan(PLAN_ID, PlanStatus::Ready, tasks_fresh()),
        plan(
            "plan_20261122_101500_654321",
            PlanStatus::Completed,
            tasks_mid_execution(),
        ),
        failed,
    ]
}

pub fn turn_started(
    mode: Mode,
    options: TurnOptions,
    agents: Vec<crate::protocol::AgentInfo>,
) -> EventMsg {
    EventMsg::TurnStarted {
        question: "Build the notes service".into(),
        mode,
        agents,
        log_dir: None,
        options,
    }
}

fn option(id: &str, label: &str, description: &str) -> QuestionOption {
    QuestionOption {
        id: id.into(),
        label: label.into(),
        description: description.into(),
    }
}

/// A structured question with three options, then a free-text one.
pub fn questions() -> Vec<Question> {
    vec![
        Question {
            text: "Which database should the notes service use?".into(),
            options: vec![
                option("pg", "Postgres", "durable and relational; needs a server"),
                option("sqlite", "SQLite", "a single file, nothing to run"),
                option("mem", "In memory", "fastest to build, lost on restart"),
            ],
            multi_select: false,
            required: true,
        },
        Question {
            text: "Anything else the API must support?".into(),
            options: Vec::new(),
            multi_select: false,
            required: false,
        },
    ]
}

pub fn asked(request_id: &str, target: BroadcastTarget, questions: Vec<Question>) -> EventMsg {
    EventMsg::BroadcastAsked {
        request_id: request_id.into(),
        target,
        questions,
        wait: true,
        timeout_secs: 300,
    }
}

pub fn closed(request_id: &str, timed_out: bool) -> EventMsg {
    EventMsg::BroadcastClosed {
        request_id: request_id.into(),
        timed_out,
        responses: 0,
    }
}
