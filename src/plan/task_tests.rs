//! Task model, plan parsing and validation, ready/blocked rules and diffs.

use serde_json::{Value, json};

use super::*;
use crate::plan::{PlanError, diff, parse_plan, plan_file_bytes, validate};

pub(super) fn parsed(value: Value) -> Result<Vec<Task>, PlanError> {
    parse_plan(&value.to_string())
}

pub(super) fn task(id: &str, status: TaskStatus, depends_on: &[&str]) -> Task {
    let mut task = Task::new(id, format!("do {id}"));
    task.status = status;
    task.depends_on = depends_on.iter().map(|id| (*id).to_string()).collect();
    task
}

#[test]
fn reads_the_tasks_object_a_bare_array_and_a_task_plan_file() {
    let simplified = json!({"tasks": [
        {"id": "T001", "description": "Scaffold", "priority": "high",
         "metadata": {"verification": "npm run build passes", "verification_group": "build"}},
        {"id": "T002", "description": "Pages", "depends_on": ["T001"], "status": "pending"}
    ]});
    let tasks = parsed(simplified).unwrap();
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[0].priority, TaskPriority::High);
    assert_eq!(tasks[0].meta_str("verification_group"), Some("build"));
    assert_eq!(tasks[1].depends_on, ["T001"]);
    assert_eq!(tasks[1].status, TaskStatus::Pending);

    let bare =
        json!([{"id": 1, "title": "First"}, {"id": 2, "name": "Second", "dependencies": [1]}]);
    let tasks = parsed(bare).unwrap();
    assert_eq!(
        (tasks[0].id.as_str(), tasks[0].description.as_str()),
        ("1", "First")
    );
    assert_eq!(tasks[1].depends_on, ["1"]);

    let plan = TaskPlan {
        agent_id: "agent_a".into(),
        tasks: vec![
            task("a", TaskStatus::Completed, &[]),
            task("b", TaskStatus::Pending, &["a"]),
        ],
        created_at: "2026-01-02T03:04:05.000006".into(),
        updated_at: "2026-01-02T03:04:06.000007".into(),
    };
    let text = serde_json::to_string(&plan).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["subagents"], json!({}));
    assert_eq!(value["tasks"][1]["dependencies"], json!(["a"]));
    assert!(value["tasks"][1].get("depends_on").is_none());
    assert_eq!(value["tasks"][1]["completed_at"], Value::Null);
    assert_eq!(parse_plan(&text).unwrap(), plan.tasks);
    let back: TaskPlan = serde_json::from_str(&text).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn unknown_task_keys_are_kept_in_metadata_and_missing_ids_are_generated() {
    let tasks = parsed(json!({"tasks": [
        {"description": "no id"},
        {"id": "T001", "description": "taken", "chunk": "C01", "success_criteria": ["a", "b"],
         "metadata": {"chunk": "metadata wins"}},
        {"description": "also no id", "execution": {"mode": "inline"}}
    ]}))
    .unwrap();
    let ids: Vec<&str> = tasks.iter().map(|task| task.id.as_str()).collect();
    assert_eq!(ids, ["T002", "T001", "T003"]);
    assert_eq!(tasks[1].metadata["success_criteria"], json!(["a", "b"]));
    assert_eq!(tasks[1].meta_str("chunk"), Some("metadata wins"));
    let written = tasks[2].to_value();
    assert_eq!(written["execution"], json!({"mode": "inline"}));
    assert_eq!(written["metadata"]["execution"], json!({"mode": "inline"}));
}

#[test]
fn completion_notes_stay_in_metadata_and_synonyms_are_accepted() {
    let tasks = parsed(json!([{"id": "x", "description": "d", "status": "Done", "priority": "P0",
        "metadata": {"completion_notes": "shipped"}, "completed_at": "2026-01-01T00:00:00.000000"}]))
    .unwrap();
    assert_eq!(tasks[0].status, TaskStatus::Completed);
    assert_eq!(tasks[0].priority, TaskPriority::High);
    assert_eq!(tasks[0].meta_str("completion_notes"), Some("shipped"));
    assert_eq!(
        tasks[0].completed_at.as_deref(),
        Some("2026-01-01T00:00:00.000000")
    );
}

#[test]
fn the_plan_file_form_uses_depends_on() {
    let tasks = vec![
        task("a", TaskStatus::Pending, &[]),
        task("b", TaskStatus::Pending, &["a"]),
    ];
    let bytes = plan_file_bytes(&tasks);
    assert!(bytes.ends_with(b"}\n"));
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(value["tasks"][1]["depends_on"], json!(["a"]));
    assert!(value["tasks"][1].get("created_at").is_none());
    assert_eq!(
        parse_plan(&String::from_utf8(bytes).unwrap()).unwrap(),
        tasks
    );
}

#[test]
fn every_parse_error_says_what_and_where() {
    let not_json = parse_plan("{\"tasks\": [\n  {\"id\": 1,}\n]}").unwrap_err();
    assert!(
        matches!(not_json, PlanError::NotJson { line: 2, .. }),
        "{not_json:?}"
    );
    assert!(not_json.to_string().contains("line 2"));
    assert_eq!(
        parsed(json!({"steps": []})).unwrap_err(),
        PlanError::NoTasks
    );
    assert_eq!(
        parsed(json!({"tasks": "x"})).unwrap_err(),
        PlanError::NoTasks
    );
    assert_eq!(parsed(json!(42)).unwrap_err(), PlanError::NoTasks);
    assert_eq!(parsed(json!({"tasks": []})).unwrap_err(), PlanError::Empty);
    assert_eq!(
        parsed(json!([{"description": "ok"}, "just text"])).unwrap_err(),
        PlanError::NotAnObject {
            index: 1,
            found: "a string"
        }
    );
    let missing = parsed(json!([{"id": "A", "description": "  "}])).unwrap_err();
    assert_eq!(
        missing,
        PlanError::MissingDescription {
            index: 0,
            id: Some("A".into())
        }
    );
    assert_eq!(
        missing.to_string(),
        "task at index 0 (`A`): it has no description"
    );
    let status =
        parsed(json!([{"id": "A", "description": "d", "status": "finished-ish"}])).unwrap_err();
    assert!(
        matches!(status, PlanError::BadStatus { index: 0, ref value, .. } if value == "finished-ish")
    );
    assert!(
        status
            .to_string()
            .contains("pending, in_progress, completed, verified, blocked")
    );
    let priority = parsed(json!([{"id": "A", "description": "d", "priority": 3}])).unwrap_err();
    assert!(matches!(priority, PlanError::BadPriority { ref value, .. } if value == "3"));
    let deps =
        parsed(json!([{"id": "A", "description": "d", "depends_on": {"x": 1}}])).unwrap_err();
    assert!(matches!(
        deps,
        PlanError::InvalidField {
            field: "depends_on",
            ..
        }
    ));
    let meta = parsed(json!([{"id": "A", "description": "d", "metadata": []}])).unwrap_err();
    assert!(matches!(
        meta,
        PlanError::InvalidField {
            field: "metadata",
            ..
        }
    ));
    let bad_id = parsed(json!([{"id": true, "description": "d"}])).unwrap_err();
    assert!(matches!(
        bad_id,
        PlanError::InvalidField { field: "id", .. }
    ));
    for error in [
        not_json,
        missing,
        status,
        priority,
        deps,
        meta,
        bad_id,
        PlanError::Empty,
    ] {
        assert!(!error.help().is_empty());
    }
}

#[test]
fn validate_names_duplicates_unknown_and_self_dependencies() {
    let duplicate = vec![
        task("a", TaskStatus::Pending, &[]),
        task("a", TaskStatus::Pending, &[]),
    ];
    assert_eq!(
        validate(&duplicate).unwrap_err(),
        PlanError::DuplicateId {
            id: "a".into(),
            first: 0,
            second: 1
        }
    );
    let unknown = vec![task("a", TaskStatus::Pending, &["ghost"])];
    let error = validate(&unknown).unwrap_err();
    assert_eq!(
        error,
        PlanError::UnknownDependency {
            task: "a".into(),
            dependency: "ghost".into()
        }
    );
    assert!(error.help().contains("ghost"));
    let selfish = vec![task("a", TaskStatus::Pending, &["a"])];
    assert_eq!(
        validate(&selfish).unwrap_err(),
        PlanError::SelfDependency { task: "a".into() }
    );
    let mut blank = task("a", TaskStatus::Pending, &[]);
    blank.description = " ".into();
    assert!(matches!(
        validate(&[blank]).unwrap_err(),
        PlanError::MissingDescription { .. }
    ));
    let too_many = PlanError::TooManyTasks { count: 12, max: 10 };
    assert_eq!(
        too_many.to_string(),
        "the plan has 12 tasks, more than the limit of 10"
    );
    assert!(too_many.help().contains("at most 10"));
}

#[test]
fn a_three_cycle_is_named_in_order() {
    let tasks = vec![
        task("setup", TaskStatus::Pending, &[]),
        task("a", TaskStatus::Pending, &["setup", "b"]),
        task("b", TaskStatus::Pending, &["c"]),
        task("c", TaskStatus::Pending, &["a"]),
    ];
    let error = validate(&tasks).unwrap_err();
    assert_eq!(
        error,
        PlanError::Cycle {
            path: vec!["a".into(), "b".into(), "c".into(), "a".into()]
        }
    );
    assert_eq!(
        error.to_string(),
        "the dependencies form a cycle: a → b → c → a"
    );
    assert!(error.help().contains("forms a DAG"));
    let dag = vec![
        task("a", TaskStatus::Pending, &[]),
        task("b", TaskStatus::Pending, &["a"]),
        task("c", TaskStatus::Pending, &["a", "b"]),
        task("d", TaskStatus::Pending, &["b", "c"]),
    ];
    assert_eq!(validate(&dag), Ok(()));
}

#[test]
fn a_long_chain_validates_without_deep_recursion() {
    let mut tasks: Vec<Task> = Vec::new();
    for index in 0..20_000 {
        let mut next = Task::new(format!("t{index}"), "step");
        if index > 0 {
            next.depends_on = vec![format!("t{}", index - 1)];
        }
        tasks.push(next);
    }
    assert_eq!(validate(&tasks), Ok(()));
    tasks[0].depends_on = vec!["t19999".into()];
    assert!(matches!(validate(&tasks), Err(PlanError::Cycle { path }) if path.len() == 20_001));
}

#[test]
fn ready_and_blocked_follow_dependencies() {
    let plan = TaskPlan {
        agent_id: "a".into(),
        tasks: vec![
            task("done", TaskStatus::Verified, &[]),
            task("free", TaskStatus::Pending, &["done"]),
            task("waiting", TaskStatus::Pending, &["done", "working"]),
            task("working", TaskStatus::InProgress, &[]),
            task("orphan", TaskStatus::Pending, &["ghost"]),
            task("stuck", TaskStatus::Blocked, &["working"]),
        ],
        created_at: String::new(),
        updated_at: String::new(),
    };
    let ready: Vec<&str> = plan.ready().iter().map(|task| task.id.as_str()).collect();
    assert_eq!(ready, ["free"]);
    let blocked: Vec<(&str, Vec<String>)> = plan
        .blocked()
        .into_iter()
        .map(|(task, ids)| (task.id.as_str(), ids))
        .collect();
    assert_eq!(
        blocked,
        [
            ("waiting", vec!["working".to_string()]),
            ("orphan", vec!["ghost".to_string()])
        ]
    );
    let progress = plan.progress();
    assert_eq!(
        (
            progress.total,
            progress.done,
            progress.in_progress,
            progress.pending,
            progress.blocked
        ),
        (6, 1, 1, 3, 1)
    );
    assert_eq!(plan.views()[2].depends_on, ["done", "working"]);
}

#[test]
fn diff_ignores_execution_progress_and_scores_changes() {
    let frozen = vec![
        task("a", TaskStatus::Pending, &[]),
        task("b", TaskStatus::Pending, &["a"]),
        task("c", TaskStatus::Pending, &["a", "b"]),
        task("d", TaskStatus::Pending, &[]),
    ];
    let mut executed = frozen.clone();
    for done in &mut executed {
        done.status = TaskStatus::Verified;
        done.completed_at = Some("2026-01-01T00:00:00.000000".into());
        done.metadata.insert("completion_notes".into(), json!("ok"));
    }
    executed[2].depends_on.reverse();
    let same = diff(&frozen, &executed);
    assert!(same.is_empty());
    assert_eq!(same.divergence_score, 0.0);

    executed[1].description = "do b differently".into();
    executed.remove(3);
    executed.push(task("e", TaskStatus::Completed, &[]));
    let changed = diff(&frozen, &executed);
    assert_eq!(changed.tasks_added, ["e"]);
    assert_eq!(changed.tasks_removed, ["d"]);
    assert_eq!(changed.tasks_modified.len(), 1);
    assert_eq!(changed.tasks_modified[0].id, "b");
    assert_eq!(changed.tasks_modified[0].original.description, "do b");
    assert_eq!(changed.divergence_score, 0.75);
    let value = serde_json::to_value(&changed).unwrap();
    assert_eq!(value["tasks_added"], json!(["e"]));
    assert_eq!(
        value["tasks_modified"][0]["modified"]["description"],
        "do b differently"
    );
    let back: crate::plan::PlanDiff = serde_json::from_value(value).unwrap();
    assert_eq!(back, changed);

    let rewritten: Vec<Task> = (0..9)
        .map(|n| task(&format!("n{n}"), TaskStatus::Pending, &[]))
        .collect();
    assert_eq!(diff(&frozen, &rewritten).divergence_score, 1.0);
    assert_eq!(diff(&[], &rewritten).divergence_score, 0.0);
}
