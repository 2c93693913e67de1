//! Shared by the planning scenario tests: two scripted agents with workspaces, the turn
//! options of a planning or execution turn, and reading plans, their directories and
//! the agents' workspaces.

use std::path::{Path, PathBuf};

use massgen::protocol::{Event, EventMsg, PlanStatus, TaskView, TurnOptions};

/// Two scripted agents with workspaces; `extra` is appended to each backend block and
/// `orchestrator` to the orchestrator block.
pub fn two_agents(extra: &str, orchestrator: &str) -> String {
    format!(
        "agents:\n\
         \x20 - id: alpha\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      cwd: workspace\n      answer: \"alpha's answer\"\n      vote_for: alpha\n{extra}\
         \x20 - id: beta\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      cwd: workspace\n      answer: \"beta's answer\"\n      vote_for: alpha\n{extra}\
         orchestrator:\n  max_new_answers_per_agent: 2\n{orchestrator}"
    )
}

pub fn planning(depth: &str) -> TurnOptions {
    TurnOptions {
        plan_depth: massgen::protocol::PlanDepth::from_name(depth).unwrap(),
        broadcast: Some(massgen::protocol::BroadcastTarget::Off),
        ..TurnOptions::default()
    }
}

pub fn execute(plan: &str) -> TurnOptions {
    TurnOptions {
        plan: Some(plan.into()),
        ..TurnOptions::default()
    }
}

pub fn plans(events: &[Event]) -> Vec<(PlanStatus, Option<String>, usize)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::PlanUpdated { plan } => {
                Some((plan.status, plan.detail.clone(), plan.tasks.len()))
            }
            _ => None,
        })
        .collect()
}

pub fn plan_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join(".massgen").join("plans")) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("plan_"))
        })
        .collect();
    dirs.sort();
    dirs
}

pub fn metadata(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("plan_metadata.json")).unwrap()).unwrap()
}

/// Every file below `dir`.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// The newest non-empty task list `agent` reported.
pub fn last_task_list(events: &[Event], agent: &str) -> Vec<TaskView> {
    events
        .iter()
        .rev()
        .find_map(|event| match &event.msg {
            EventMsg::TaskPlanChanged { tasks }
                if event.agent.as_ref().is_some_and(|id| id.as_str() == agent)
                    && !tasks.is_empty() =>
            {
                Some(tasks.clone())
            }
            _ => None,
        })
        .unwrap_or_default()
}
