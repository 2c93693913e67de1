//! How an execution's outcome is recorded and read back: tasks left open make the plan
//! partial (MassGen's `resumable`, with our `execution_progress`), the saved plan shows its
//! tasks as execution left them, and a partial plan runs again as `latest`.

use std::fs;

use serde_json::{Value, json};

use super::*;
use crate::protocol::{OpenTask, PlanOutcome, TaskStatus};

/// A ready three-task plan (t3 waits on t2) and a winner's workspace whose task file
/// holds `statuses` for t1, t2 and t3.
fn executed(statuses: [&str; 3]) -> (tempfile::TempDir, SavedPlan, tempfile::TempDir) {
    let root = tempfile::tempdir().unwrap();
    let store = PlanStore::new(root.path());
    let mut plan = store
        .create(&NewPlan {
            prompt: "Plan a party".into(),
            session_id: None,
            log_dir: None,
            turn: 1,
            context_paths: Vec::new(),
            depth: PlanDepth::Shallow,
        })
        .unwrap();
    let planner = tempfile::tempdir().unwrap();
    let tasks = |statuses: [&str; 3]| {
        json!({"tasks": [
            {"id": "t1", "description": "Lay the table", "status": statuses[0]},
            {"id": "t2", "description": "Fetch the cake", "status": statuses[1]},
            {"id": "t3", "description": "Light the candles", "status": statuses[2],
             "depends_on": ["t2"]},
        ]})
        .to_string()
    };
    fs::write(
        planner.path().join("project_plan.json"),
        tasks(["pending"; 3]),
    )
    .unwrap();
    plan.finalize(planner.path()).unwrap();
    let winner = tempfile::tempdir().unwrap();
    fs::create_dir_all(winner.path().join("tasks")).unwrap();
    fs::write(winner.path().join("tasks/plan.json"), tasks(statuses)).unwrap();
    plan.start_execution(None, None, "").unwrap();
    (root, plan, winner)
}

fn metadata(plan: &SavedPlan) -> Value {
    serde_json::from_slice(&fs::read(plan.dir.join(METADATA)).unwrap()).unwrap()
}

#[test]
fn a_completed_turn_that_leaves_tasks_open_makes_the_plan_partial() {
    let (root, mut plan, winner) = executed(["verified", "blocked", "pending"]);
    plan.finish_execution(Some(winner.path()), &ExecutionEnd::Completed)
        .unwrap();

    let outcome = PlanOutcome {
        total: 3,
        done: 1,
        open: vec![
            OpenTask {
                id: "t2".into(),
                status: TaskStatus::Blocked,
            },
            OpenTask {
                id: "t3".into(),
                status: TaskStatus::Pending,
            },
        ],
    };
    let meta = metadata(&plan);
    assert_eq!(meta["status"], "resumable", "{meta:#}");
    assert_eq!(meta["resumable_state"]["reason"], "tasks_incomplete");
    assert_eq!(
        meta["execution_progress"],
        json!({"total_tasks": 3, "completed_count": 1, "open_tasks": [
            {"id": "t2", "status": "blocked"}, {"id": "t3", "status": "pending"}]})
    );
    let log = fs::read_to_string(plan.dir.join("execution_log.jsonl")).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["event_type"], "execution_incomplete");
    assert_eq!(last["data"]["progress"]["completed_count"], 1);

    // Read back, the plan is partial, shows its tasks as execution left them and no
    // longer the frozen ones, and `latest` runs it again.
    let store = PlanStore::new(root.path());
    let info = store.list(1).remove(0);
    assert_eq!(info.status, PlanStatus::Partial);
    assert_eq!(info.outcome, Some(outcome));
    let statuses: Vec<TaskStatus> = info.tasks.iter().map(|task| task.status).collect();
    assert_eq!(
        statuses,
        [
            TaskStatus::Verified,
            TaskStatus::Blocked,
            TaskStatus::Pending
        ]
    );
    assert_eq!(store.resolve("latest").unwrap().id, plan.id);

    // Run again, it starts from the frozen plan with no outcome until it ends.
    let mut again = store.resolve("latest").unwrap();
    again.start_execution(None, None, "").unwrap();
    let meta = metadata(&again);
    assert_eq!(meta["status"], "executing");
    assert!(meta.get("execution_progress").is_none(), "{meta:#}");
    assert!(meta.get("resumable_state").is_none(), "{meta:#}");
    assert!(
        again
            .info()
            .tasks
            .iter()
            .all(|task| task.status == TaskStatus::Pending)
    );
}

#[test]
fn a_plan_carried_out_whole_is_completed_with_its_count() {
    let (root, mut plan, winner) = executed(["completed", "verified", "completed"]);
    plan.finish_execution(Some(winner.path()), &ExecutionEnd::Completed)
        .unwrap();
    let meta = metadata(&plan);
    assert_eq!(meta["status"], "completed");
    assert_eq!(meta["execution_progress"]["completed_count"], 3);
    let info = PlanStore::new(root.path()).list(1).remove(0);
    assert_eq!(info.status, PlanStatus::Completed);
    assert!(info.outcome.is_some_and(|outcome| outcome.is_finished()));
    assert!(info.tasks.iter().all(|task| task.status.is_done()));
}

#[test]
fn massgens_resumable_without_our_progress_is_ready_to_run_again() {
    let (root, plan, _) = executed(["pending"; 3]);
    let mut meta = metadata(&plan);
    meta["status"] = json!("resumable");
    fs::write(plan.dir.join(METADATA), meta.to_string()).unwrap();
    let info = PlanStore::new(root.path()).list(1).remove(0);
    assert_eq!((info.status, info.outcome), (PlanStatus::Ready, None));
}
