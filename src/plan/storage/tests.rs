//! Creating, listing and resolving saved plans (ours and MassGen-written) and recording execution.

use std::fs;

use serde_json::{Value, json};

use super::*;

fn new_plan(prompt: &str) -> NewPlan {
    NewPlan {
        prompt: prompt.into(),
        session_id: None,
        log_dir: None,
        turn: 2,
        context_paths: Vec::new(),
        depth: PlanDepth::Medium,
    }
}

fn winner(tasks: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("project_plan.json"), tasks.to_string()).unwrap();
    dir
}

fn ready_plan(store: &PlanStore, prompt: &str) -> SavedPlan {
    let mut plan = store.create(&new_plan(prompt)).unwrap();
    let workspace = winner(
        json!({"tasks": [{"id": "T001", "description": "one"}, {"id": "T002", "description": "two", "depends_on": ["T001"]}]}),
    );
    plan.finalize(workspace.path()).unwrap();
    plan
}

/// A plan directory as MassGen v0.1.78 writes it.
fn massgen_plan(store: &PlanStore, stamp: &str, status: &str) -> PathBuf {
    let dir = store.root().join(format!("plan_{stamp}"));
    fs::create_dir_all(dir.join("frozen")).unwrap();
    let metadata = json!({
        "plan_id": stamp, "created_at": "2025-01-01T12:00:00.000001",
        "planning_session_id": "log_x", "planning_log_dir": "/logs/log_x",
        "planning_prompt": null, "planning_turn": null,
        "execution_session_id": null, "execution_log_dir": null, "status": status,
        "context_paths": [{"path": "/src/app", "permission": "write"}],
        "plan_revision": 1, "planning_iteration_count": 1, "planning_feedback_history": [],
        "last_planning_mode": "multi", "execution_mode": "chunked_by_planner_v1",
        "chunk_order": ["C01"], "current_chunk": null, "completed_chunks": [],
        "chunk_history": [], "resumable_state": null, "artifact_type": "plan"
    });
    fs::write(
        dir.join("plan_metadata.json"),
        serde_json::to_vec_pretty(&metadata).unwrap(),
    )
    .unwrap();
    let frozen = json!({"tasks": [{"id": "F001", "chunk": "C01", "task_type": "deterministic", "description": "d", "status": "pending", "depends_on": [], "priority": "high", "success_criteria": ["x"], "metadata": {"verification_group": "g"}}]});
    fs::write(dir.join("frozen/plan.json"), frozen.to_string()).unwrap();
    dir
}

#[test]
fn create_writes_metadata_in_massgens_order_and_logs_it() {
    let massgen = tempfile::tempdir().unwrap();
    let store = PlanStore::new(massgen.path());
    let mut request = new_plan("Build a blog");
    request.session_id = Some("log_20260101_000000_000000".into());
    request.context_paths = vec![ContextPath {
        path: PathBuf::from("/src/app"),
        writable: true,
    }];
    let plan = store.create(&request).unwrap();
    let second = store.create(&request).unwrap();
    assert_ne!(plan.id, second.id);
    let stamp = plan.id.strip_prefix("plan_").unwrap();
    assert_eq!(stamp.len(), "20260101_000000_000000".len());
    assert_eq!(plan.metadata.plan_id, stamp);
    assert_eq!(plan.dir, massgen.path().join("plans").join(&plan.id));

    let text = fs::read_to_string(plan.dir.join("plan_metadata.json")).unwrap();
    let order = [
        "plan_id",
        "created_at",
        "planning_session_id",
        "planning_log_dir",
        "planning_prompt",
        "planning_turn",
        "execution_session_id",
        "execution_log_dir",
        "status",
        "context_paths",
        "plan_depth",
        "failure_reason",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|key| text.find(&format!("\"{key}\"")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "{text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["status"], "planning");
    assert_eq!(value["planning_prompt"], "Build a blog");
    assert_eq!(value["planning_turn"], 2);
    assert_eq!(
        value["context_paths"],
        json!([{"path": "/src/app", "permission": "write"}])
    );
    assert_eq!(value["plan_depth"], "medium");
    let created = value["created_at"].as_str().unwrap();
    assert!(
        created.parse::<jiff::civil::DateTime>().is_ok() && created.len() == 26,
        "{created}"
    );

    let log = fs::read_to_string(plan.dir.join("execution_log.jsonl")).unwrap();
    let line: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(line["event_type"], "plan_created");
    assert_eq!(
        line["data"],
        json!({"plan_id": stamp, "prompt": "Build a blog", "turn": 2})
    );
    assert!(log.find("\"timestamp\"").unwrap() < log.find("\"event_type\"").unwrap());
}

#[test]
fn list_is_newest_first_without_half_plans() {
    let massgen = tempfile::tempdir().unwrap();
    let store = PlanStore::new(massgen.path());
    assert!(store.list(10).is_empty());
    let first = ready_plan(&store, "first");
    let _half = store.create(&new_plan("half")).unwrap();
    let second = ready_plan(&store, "second");
    fs::create_dir_all(store.root().join("plan_99999999_999999_999999")).unwrap();
    fs::create_dir_all(store.root().join("plan_99999999_999999_999998")).unwrap();
    fs::write(
        store
            .root()
            .join("plan_99999999_999999_999998/plan_metadata.json"),
        "not json",
    )
    .unwrap();
    fs::create_dir_all(store.root().join("other")).unwrap();
    let listed = store.list(10);
    let ids: Vec<&str> = listed.iter().map(|info| info.id.as_str()).collect();
    assert_eq!(ids, [second.id.as_str(), first.id.as_str()]);
    assert_eq!(listed[0].prompt, "second");
    assert_eq!(listed[0].status, PlanStatus::Ready);
    assert_eq!(listed[0].tasks.len(), 2);
    assert_eq!(listed[0].divergence, None);
    assert!(
        listed[0].created_at.parse::<jiff::Timestamp>().is_ok(),
        "{}",
        listed[0].created_at
    );
    assert_eq!(store.list(1).len(), 1);
}

#[test]
fn resolve_by_latest_id_prefix_and_path() {
    let massgen = tempfile::tempdir().unwrap();
    let store = PlanStore::new(massgen.path());
    assert!(matches!(
        store.resolve("latest"),
        Err(ResolveError::NoPlans { .. })
    ));
    assert!(
        store
            .resolve("latest")
            .unwrap_err()
            .to_string()
            .contains("massgen --plan")
    );
    assert!(matches!(
        store.resolve("20260101"),
        Err(ResolveError::NoPlans { .. })
    ));
    let older = ready_plan(&store, "older");
    let newer = ready_plan(&store, "newer");
    let half = store.create(&new_plan("half")).unwrap();

    assert_eq!(store.resolve("latest").unwrap().id, newer.id);
    assert_eq!(store.resolve(" LATEST ").unwrap().id, newer.id);
    assert_eq!(store.resolve(&older.id).unwrap().id, older.id);
    assert_eq!(store.resolve(&older.metadata.plan_id).unwrap().id, older.id);
    assert_eq!(
        store.resolve(older.dir.to_str().unwrap()).unwrap().id,
        older.id
    );
    let cwd = std::env::current_dir().unwrap();
    let relative: PathBuf = cwd
        .components()
        .skip(1)
        .map(|_| "..")
        .collect::<PathBuf>()
        .join(older.dir.strip_prefix("/").unwrap());
    assert_eq!(
        store.resolve(relative.to_str().unwrap()).unwrap().id,
        older.id
    );

    let unique = &newer.id[..newer.id.len() - 2];
    if !older.id.starts_with(unique) && !half.id.starts_with(unique) {
        assert_eq!(store.resolve(unique).unwrap().id, newer.id);
    }
    assert!(matches!(
        store.resolve("plan_2"),
        Err(ResolveError::Ambiguous { .. })
    ));
    let missing = store.resolve("19990101_000000_000000").unwrap_err();
    assert!(
        matches!(&missing, ResolveError::NoMatch { recent, .. } if recent.len() == 2 && !recent.contains(&half.id))
    );
    assert!(missing.to_string().contains(&older.id));
    let unfinished = store.resolve(&half.id).unwrap_err();
    assert_eq!(
        unfinished,
        ResolveError::Unfinished {
            id: half.id.clone()
        }
    );
    assert!(unfinished.to_string().contains("unfinished"));
    let not_a_plan = tempfile::tempdir().unwrap();
    assert!(matches!(
        store.resolve(not_a_plan.path().to_str().unwrap()),
        Err(ResolveError::Unreadable { .. })
    ));

    fs::write(newer.frozen_dir().join("plan.json"), "{broken").unwrap();
    assert_eq!(store.resolve("latest").unwrap().id, older.id);
    assert!(matches!(
        store.resolve(&newer.id),
        Err(ResolveError::Unreadable { .. })
    ));
}

#[test]
fn massgen_written_plans_are_listed_resolved_and_kept_intact() {
    let massgen = tempfile::tempdir().unwrap();
    let store = PlanStore::new(massgen.path());
    massgen_plan(&store, "20250101_120000_000001", "resumable");
    massgen_plan(&store, "20250101_110000_000001", "completed");
    massgen_plan(&store, "20250101_130000_000001", "planning");
    let listed = store.list(10);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].status, PlanStatus::Ready);
    assert_eq!(listed[0].prompt, "");
    assert_eq!(listed[0].tasks[0].id, "F001");
    let mut plan = store.resolve("latest").unwrap();
    assert_eq!(plan.id, "plan_20250101_120000_000001");
    assert_eq!(
        plan.metadata.context_paths,
        [ContextPath {
            path: PathBuf::from("/src/app"),
            writable: true
        }]
    );
    assert_eq!(
        plan.frozen_tasks().unwrap()[0].meta_str("chunk"),
        Some("C01")
    );
    plan.start_execution(Some("log_y".into()), None, "go")
        .unwrap();
    let rewritten: Value =
        serde_json::from_slice(&fs::read(plan.dir.join("plan_metadata.json")).unwrap()).unwrap();
    assert_eq!(rewritten["status"], "executing");
    assert_eq!(rewritten["chunk_order"], json!(["C01"]));
    assert_eq!(rewritten["artifact_type"], "plan");
    assert_eq!(rewritten["execution_session_id"], "log_y");
    assert_eq!(
        store.resolve("20250101_11").unwrap().metadata.status,
        PlanStatus::Completed
    );
}

#[test]
fn execution_replaces_the_workspace_and_records_the_diff() {
    let massgen = tempfile::tempdir().unwrap();
    let store = PlanStore::new(massgen.path());
    let mut plan = ready_plan(&store, "run me");
    plan.start_execution(
        Some("log_exec".into()),
        Some(PathBuf::from("/logs/log_exec")),
        "run me",
    )
    .unwrap();
    assert_eq!(store.list(1)[0].status, PlanStatus::Executing);

    let executed = tempfile::tempdir().unwrap();
    let mut planner = crate::plan::TaskPlanner::from_file_bytes(
        "agent_a",
        0,
        &fs::read(plan.frozen_dir().join("plan.json")).unwrap(),
        jiff::Timestamp::now(),
    )
    .unwrap();
    for (id, status) in [
        ("T001", "completed"),
        ("T001", "verified"),
        ("T002", "completed"),
    ] {
        planner
            .call(
                "update_task_status",
                &json!({"task_id": id, "status": status}).to_string(),
                jiff::Timestamp::now(),
            )
            .unwrap();
    }
    fs::create_dir_all(executed.path().join("tasks")).unwrap();
    fs::write(
        executed.path().join("tasks/plan.json"),
        planner.file_bytes().unwrap(),
    )
    .unwrap();
    fs::write(executed.path().join("index.html"), "<h1>blog</h1>").unwrap();
    let diff = plan
        .finish_execution(Some(executed.path()), &ExecutionEnd::Completed)
        .unwrap()
        .unwrap();
    assert!(diff.is_empty());
    assert_eq!(
        entries(&plan.dir.join("workspace")),
        ["index.html", "tasks"]
    );
    assert!(!plan.dir.join(".execute.tmp").exists());
    let info = store.list(1).remove(0);
    assert_eq!(
        (info.status, info.divergence, info.detail),
        (PlanStatus::Completed, Some(0.0), None)
    );
    let log = fs::read_to_string(plan.dir.join("execution_log.jsonl")).unwrap();
    let events: Vec<String> = log
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["event_type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        events,
        [
            "plan_created",
            "planning_finalized",
            "execution_started",
            "diff_computed",
            "execution_completed"
        ]
    );

    planner
        .call(
            "add_task",
            &json!({"description": "extra"}).to_string(),
            jiff::Timestamp::now(),
        )
        .unwrap();
    fs::write(
        executed.path().join("tasks/plan.json"),
        planner.file_bytes().unwrap(),
    )
    .unwrap();
    let diff = plan
        .finish_execution(
            Some(executed.path()),
            &ExecutionEnd::Failed {
                reason: "timed out".into(),
            },
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        (diff.tasks_added.clone(), diff.divergence_score),
        (vec!["T003".to_string()], 0.5)
    );
    let info = plan.info();
    assert_eq!(
        (info.status, info.divergence, info.detail.as_deref()),
        (PlanStatus::Failed, Some(0.5), Some("timed out"))
    );
    assert_eq!(
        store.resolve(&plan.id).unwrap().id,
        plan.id,
        "a failed execution can be run again by id"
    );
    assert!(matches!(
        store.resolve("latest"),
        Err(ResolveError::NothingReady { .. })
    ));
    plan.fail("gave up").unwrap();
    assert!(log_tail(&plan).contains("execution_failed"));
    assert_eq!(
        plan.finish_execution(None, &ExecutionEnd::Completed)
            .unwrap()
            .map(|diff| diff.divergence_score),
        None
    );
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn log_tail(plan: &SavedPlan) -> String {
    fs::read_to_string(plan.dir.join("execution_log.jsonl"))
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string()
}
