//! Workspaces end to end on a temporary project: directories, snapshots, peers' copies.

use std::fs;
use std::sync::Arc;

use super::*;
use crate::config::{Env, from_text};

const TWO_AGENTS: &str = "agents:\n  - id: zed\n    backend: {type: scripted, cwd: workspace}\n  \
                          - id: amy\n    backend: {type: scripted, cwd: workspace}\n  \
                          - id: tools_free\n    backend: {type: scripted}\n";

fn setup() -> (tempfile::TempDir, Arc<Workspaces>) {
    let project = tempfile::tempdir().unwrap();
    let workspaces = create(&project);
    (project, workspaces)
}

fn create(project: &tempfile::TempDir) -> Arc<Workspaces> {
    let config = from_text(TWO_AGENTS, "t.yaml", &Env::default())
        .unwrap()
        .config;
    let roster = AgentInfo::roster(
        config
            .agents
            .iter()
            .map(|agent| (agent.id.clone(), "scripted".into(), "m".into())),
    );
    Arc::new(Workspaces::create(project.path(), &config, &roster).unwrap())
}

#[test]
fn workspaces_get_random_names_and_only_agents_with_cwd_get_one() {
    let (project, workspaces) = setup();
    let zed = workspaces.dirs(0).unwrap();
    let amy = workspaces.dirs(1).unwrap();
    assert!(workspaces.dirs(2).is_none());
    assert_ne!(zed.workspace, amy.workspace);
    let name = zed.workspace.file_name().unwrap().to_string_lossy();
    assert!(name.starts_with("workspace_") && name.len() == "workspace_".len() + 8);
    assert!(
        !zed.workspace.to_string_lossy().contains("zed"),
        "no identity in paths"
    );
    assert!(!zed.temp.to_string_lossy().contains("zed"));
    assert!(
        zed.workspace.starts_with(
            project
                .path()
                .canonicalize()
                .unwrap()
                .join(".massgen/workspaces")
        )
    );
}

#[tokio::test]
async fn a_round_sees_every_snapshot_under_anonymous_names() {
    let (_project, workspaces) = setup();
    let zed = workspaces.dirs(0).unwrap().clone();
    let amy = workspaces.dirs(1).unwrap().clone();
    fs::write(zed.workspace.join("plan.md"), "zed's plan").unwrap();
    let report = workspaces.request_snapshot(0).unwrap().await.unwrap();
    assert_eq!(report.files, 1);
    Arc::clone(&workspaces).prepare_round(1).await.unwrap();
    // Config order: zed → agent1, amy → agent2, tools_free → agent3.
    assert_eq!(
        fs::read_to_string(amy.temp.join("agent1/plan.md")).unwrap(),
        "zed's plan"
    );
    assert!(!amy.temp.join("agent2").exists(), "amy has no snapshot yet");
}

#[tokio::test]
async fn a_round_waits_for_a_snapshot_still_being_written() {
    let (_project, workspaces) = setup();
    let zed = workspaces.dirs(0).unwrap().clone();
    let amy = workspaces.dirs(1).unwrap().clone();
    fs::write(zed.workspace.join("v.txt"), "first").unwrap();
    workspaces.request_snapshot(0).unwrap().await.unwrap();
    fs::write(zed.workspace.join("v.txt"), "second").unwrap();
    let pending = workspaces.request_snapshot(0).unwrap();
    let round = tokio::spawn(Arc::clone(&workspaces).prepare_round(1));
    tokio::task::yield_now().await;
    assert!(!round.is_finished(), "waits for the second snapshot");
    pending.await.unwrap();
    round.await.unwrap().unwrap();
    assert_eq!(
        fs::read_to_string(amy.temp.join("agent1/v.txt")).unwrap(),
        "second"
    );
}

/// A plan is taken from the work behind the winning answer, not from what the agent did
/// after it: the snapshot, once the save in flight is written.
#[tokio::test]
async fn the_latest_snapshot_waits_for_the_save_in_flight_and_ignores_later_work() {
    let (_project, workspaces) = setup();
    let zed = workspaces.dirs(0).unwrap().clone();
    assert_eq!(workspaces.latest_snapshot(0).await, None, "no answer yet");
    fs::write(zed.workspace.join("project_plan.json"), "answered").unwrap();
    let pending = workspaces.request_snapshot(0).unwrap();
    let waiting = tokio::spawn({
        let workspaces = Arc::clone(&workspaces);
        async move { workspaces.latest_snapshot(0).await }
    });
    tokio::task::yield_now().await;
    assert!(!waiting.is_finished(), "waits for the save in flight");
    pending.await.unwrap();
    let snapshot = waiting.await.unwrap().unwrap();
    fs::write(zed.workspace.join("project_plan.json"), "half-rewritten").unwrap();
    assert_eq!(
        fs::read_to_string(snapshot.join("project_plan.json")).unwrap(),
        "answered"
    );
}

#[tokio::test]
async fn the_winner_workspace_lands_in_the_log_directory() {
    let (project, workspaces) = setup();
    let amy = workspaces.dirs(1).unwrap().clone();
    fs::write(amy.workspace.join("answer.py"), "print(42)").unwrap();
    let log = project.path().join("log/turn_1/attempt_1");
    let report = Arc::clone(&workspaces)
        .save_final(1, "amy".into(), log.clone())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(report.files, 1);
    assert!(log.join("final/amy/workspace/answer.py").is_file());
    assert!(
        Arc::clone(&workspaces)
            .save_final(2, "tools_free".into(), log)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_new_run_or_turn_forgets_earlier_snapshots() {
    let project = tempfile::tempdir().unwrap();
    let stale = project.path().join(".massgen/snapshots/zed");
    fs::create_dir_all(&stale).unwrap();
    fs::write(stale.join("old_task.md"), "last run").unwrap();
    let workspaces = create(&project);
    let amy = workspaces.dirs(1).unwrap().clone();
    Arc::clone(&workspaces).prepare_round(1).await.unwrap();
    assert!(
        !amy.temp.join("agent1").exists(),
        "no snapshot from the last run"
    );

    let zed = workspaces.dirs(0).unwrap().clone();
    fs::write(zed.workspace.join("turn1.md"), "1").unwrap();
    workspaces.request_snapshot(0).unwrap().await.unwrap();
    Arc::clone(&workspaces).prepare_round(1).await.unwrap();
    assert!(amy.temp.join("agent1/turn1.md").is_file());
    Arc::clone(&workspaces).clear_snapshots().await.unwrap();
    Arc::clone(&workspaces).prepare_round(1).await.unwrap();
    assert!(
        !amy.temp.join("agent1").exists(),
        "a new turn starts without them"
    );
}

#[test]
fn a_workspace_holding_the_massgen_folder_is_not_copied_into_itself() {
    let project = tempfile::tempdir().unwrap();
    fs::write(project.path().join("main.py"), "print(1)").unwrap();
    fs::create_dir_all(project.path().join(".massgen/workspaces/w")).unwrap();
    let snapshot = project.path().join("snapshots_inside/agent");
    let report = replace_tree(project.path(), &snapshot, DEFAULT_MAX_FILE_BYTES).unwrap();
    assert_eq!(report.files, 1);
    assert!(
        !snapshot.join("snapshots_inside/agent").exists(),
        "not into itself"
    );
    assert!(!snapshot.join("snapshots_inside/.agent.incoming").exists());
    assert!(!snapshot.join(".massgen").exists());
}
