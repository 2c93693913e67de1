//! Scenario tests of Planning and Execute with scripted agents: config planning mode
//! blocking MCP tools, a planning turn leaving a whole saved plan, executing it task by
//! task, plans that fail validation, and the refine-off and single-agent presets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::{Path, PathBuf};

use massgen::protocol::{
    Event, EventMsg, Mode, PlanStatus, TaskStatus, TaskView, TurnOptions, TurnOutcome,
};
use support::{Scenario, outcome, transcript};

/// Two scripted agents with workspaces; `extra` is appended to each backend block and
/// `orchestrator` to the orchestrator block.
fn two_agents(extra: &str, orchestrator: &str) -> String {
    format!(
        "agents:\n\
         \x20 - id: alpha\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      cwd: workspace\n      answer: \"alpha's answer\"\n      vote_for: alpha\n{extra}\
         \x20 - id: beta\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      cwd: workspace\n      answer: \"beta's answer\"\n      vote_for: alpha\n{extra}\
         orchestrator:\n  max_new_answers_per_agent: 2\n{orchestrator}"
    )
}

fn planning(depth: &str) -> TurnOptions {
    TurnOptions {
        plan_depth: massgen::protocol::PlanDepth::from_name(depth).unwrap(),
        broadcast: Some(massgen::protocol::BroadcastTarget::Off),
        ..TurnOptions::default()
    }
}

fn execute(plan: &str) -> TurnOptions {
    TurnOptions {
        plan: Some(plan.into()),
        ..TurnOptions::default()
    }
}

fn plans(events: &[Event]) -> Vec<(PlanStatus, Option<String>, usize)> {
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

fn plan_dirs(root: &Path) -> Vec<PathBuf> {
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

fn metadata(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("plan_metadata.json")).unwrap()).unwrap()
}

/// `(tool, ok)` of every tool call that ran, and the tools planning mode blocked.
fn tool_calls(events: &[Event], agent: &str) -> (Vec<(String, bool)>, Vec<String>) {
    let mine = |event: &&Event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent);
    let ran = events
        .iter()
        .filter(mine)
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, ok, .. } => Some((tool.clone(), *ok)),
            _ => None,
        })
        .collect();
    let blocked = events
        .iter()
        .filter(mine)
        .filter_map(|event| match &event.msg {
            EventMsg::ToolBlocked { tool, message, .. } => {
                assert!(message.contains("blocked during coordination"), "{message}");
                Some(tool.clone())
            }
            _ => None,
        })
        .collect();
    (ran, blocked)
}

const TOOLS: &str = "      tool_calls:\n        - {name: mcp__filesystem__write_file, arguments: {path: draft.txt, content: draft}}\n        - {name: mcp__filesystem__list_directory, arguments: {path: .}}\n      final_tool_calls:\n        - {name: mcp__filesystem__write_file, arguments: {path: final.txt, content: final}}\n";

async fn planning_mode_turn(analysis: &str) -> (Vec<Event>, Scenario) {
    let extra = format!("{TOOLS}      planning_analysis: \"{analysis}\"\n");
    let yaml = two_agents(&extra, "  coordination: {enable_planning_mode: true}\n");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Tidy the notes", Mode::Normal, TurnOptions::default())
        .await;
    (events, scenario)
}

#[tokio::test]
async fn planning_mode_blocks_exactly_the_listed_tools_and_never_the_presenter() {
    let (events, scenario) =
        planning_mode_turn("IRREVERSIBLE: YES\\nBLOCKED_TOOLS: mcp__filesystem__write_file").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let decided = events.iter().find_map(|event| match &event.msg {
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => Some((*irreversible, blocked_tools.clone())),
        _ => None,
    });
    assert_eq!(
        decided,
        Some((true, vec!["mcp__filesystem__write_file".to_string()]))
    );
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(
            blocked
                .iter()
                .all(|tool| tool == "mcp__filesystem__write_file")
                && !blocked.is_empty(),
            "{agent}: {blocked:?}"
        );
        assert!(
            ran.contains(&("mcp__filesystem__list_directory".to_string(), true)),
            "{agent} reads while writes are blocked: {ran:?}"
        );
    }
    // The winner presents with every tool: its write ran, and only then.
    let (ran, _) = tool_calls(&events, "alpha");
    assert!(
        ran.contains(&("mcp__filesystem__write_file".to_string(), true)),
        "{ran:?}"
    );
    let workspaces = scenario.dir.path().join(".massgen").join("workspaces");
    let written: Vec<String> = walk(&workspaces)
        .into_iter()
        .filter_map(|path| Some(path.file_name()?.to_string_lossy().into_owned()))
        .collect();
    assert!(written.contains(&"final.txt".to_string()), "{written:?}");
    assert!(!written.contains(&"draft.txt".to_string()), "{written:?}");
    // The system prompt told the agents what planning mode wants of them.
    let requests = scenario.requests_of("beta");
    let round = requests
        .iter()
        .find(|request| request.tools.iter().any(|tool| tool.name == "vote"))
        .unwrap();
    let system = round.messages[0].content();
    assert!(system.contains("<planning_mode"), "{system}");
}

#[tokio::test]
async fn an_empty_block_list_blocks_every_mcp_tool_until_the_presentation() {
    let (events, _scenario) = planning_mode_turn("IRREVERSIBLE: YES\\nBLOCKED_TOOLS:").await;
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(
            blocked.contains(&"mcp__filesystem__list_directory".to_string())
                && blocked.contains(&"mcp__filesystem__write_file".to_string()),
            "{agent}: {blocked:?}"
        );
        let coordination_calls = ran
            .iter()
            .filter(|(tool, _)| tool != "mcp__filesystem__write_file");
        assert_eq!(coordination_calls.count(), 0, "{agent}: {ran:?}");
    }
    let (ran, _) = tool_calls(&events, "alpha");
    assert_eq!(ran, vec![("mcp__filesystem__write_file".to_string(), true)]);
}

#[tokio::test]
async fn nothing_irreversible_blocks_nothing() {
    let (events, _scenario) = planning_mode_turn("IRREVERSIBLE: NO").await;
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(blocked.is_empty(), "{agent}: {blocked:?}");
        assert!(ran.iter().all(|(_, ok)| *ok) && ran.len() >= 2, "{ran:?}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
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

#[tokio::test]
async fn a_planning_turn_leaves_a_whole_plan_and_execute_latest_carries_it_out() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Plan a launch party", Mode::Planning, planning("shallow"))
        .await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let updates = plans(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Planning)
    );
    assert_eq!(
        updates.last().map(|update| (update.0, update.2)),
        Some((PlanStatus::Ready, 5)),
        "{updates:?}"
    );
    let dirs = plan_dirs(scenario.dir.path());
    assert_eq!(dirs.len(), 1);
    let plan = &dirs[0];
    for file in [
        "plan_metadata.json",
        "execution_log.jsonl",
        "plan_diff.json",
        "frozen/plan.json",
        "workspace/plan.json",
    ] {
        assert!(plan.join(file).is_file(), "{file} in {}", plan.display());
    }
    let meta = metadata(plan);
    assert_eq!(meta["status"], "ready");
    assert_eq!(meta["planning_prompt"], "Plan a launch party");
    // Planning turns hand agents the planning prompt, not the bare question.
    let first = scenario.requests_of("alpha")[0].messages[1]
        .content()
        .to_string();
    assert!(first.contains("# TASK PLANNING MODE"), "{first}");
    assert!(first.contains("Plan a launch party"));

    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let updates = plans(&events);
    assert_eq!(
        updates.first().map(|update| update.0),
        Some(PlanStatus::Executing)
    );
    let (status, detail, _) = updates.last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Completed, "{detail:?}");
    let last_tasks = last_task_list(&events, "alpha");
    assert_eq!(last_tasks.len(), 5);
    assert!(
        last_tasks
            .iter()
            .all(|task| matches!(task.status, TaskStatus::Completed | TaskStatus::Verified)),
        "{last_tasks:?}"
    );
    let meta = metadata(plan);
    assert_eq!(meta["status"], "completed");
    let diff: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(plan.join("plan_diff.json")).unwrap())
            .unwrap();
    assert_eq!(diff["divergence_score"], 0.0, "{diff}");
    // Every agent had the plan and its documents in its workspace.
    let workspaces = scenario.dir.path().join(".massgen").join("workspaces");
    let files = walk(&workspaces);
    assert!(files.iter().any(|path| path.ends_with("tasks/plan.json")));
    assert!(
        files
            .iter()
            .any(|path| path.ends_with("planning_docs/full_plan.json"))
    );
    let request = scenario.requests_of("beta").last().unwrap().clone();
    assert!(
        request.messages[0]
            .content()
            .contains("Plan Execution Mode")
    );
}

fn last_task_list(events: &[Event], agent: &str) -> Vec<TaskView> {
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

#[tokio::test]
async fn a_cyclic_plan_fails_with_the_cycle_named() {
    let cyclic = "      plan:\n        - {id: A, description: first, depends_on: [B]}\n        - {id: B, description: second, depends_on: [A]}\n";
    let yaml = two_agents(cyclic, "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit(
            "Plan something circular",
            Mode::Planning,
            planning("shallow"),
        )
        .await;
    let (status, detail, _) = plans(&events).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Failed);
    let detail = detail.unwrap();
    assert!(
        detail.contains("cycle") && detail.contains('A') && detail.contains('B'),
        "{detail}"
    );
    let warning = events.iter().find_map(|event| match &event.msg {
        EventMsg::Warning { message } if message.contains("failed") => Some(message.clone()),
        _ => None,
    });
    assert!(warning.is_some_and(|message| message.contains("DAG")));
    let dirs = plan_dirs(scenario.dir.path());
    let meta = metadata(&dirs[0]);
    assert_eq!(meta["status"], "failed");
    assert!(!dirs[0].join("frozen").exists());
    // A failed plan is not executed as `latest`.
    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
}

#[tokio::test]
async fn a_plan_never_written_fails_and_says_where_it_looked() {
    let no_writes = "      exclude_tools: [mcp__filesystem__write_file]\n";
    let yaml = two_agents(no_writes, "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Plan nothing", Mode::Planning, planning("shallow"))
        .await;
    let (status, detail, _) = plans(&events).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Failed);
    assert!(detail.unwrap().contains("project_plan.json"));
}

#[tokio::test]
async fn planning_needs_workspaces_and_says_how_to_add_them() {
    let yaml = "agents:\n  - {id: solo, backend: {type: scripted, tokens_per_second: 0}}\n";
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), yaml);
    let events = scenario
        .submit("Plan it", Mode::Planning, planning("shallow"))
        .await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
    let warning = events.iter().find_map(|event| match &event.msg {
        EventMsg::Warning { message } => Some(message.clone()),
        _ => None,
    });
    assert!(warning.unwrap().contains("cwd: workspace"));
    assert!(plan_dirs(scenario.dir.path()).is_empty());
}

#[tokio::test]
async fn plan_and_execute_runs_both_turns_and_lists_the_plan() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let options = TurnOptions {
        auto_execute: true,
        ..planning("shallow")
    };
    let events = scenario
        .submit("Write a guide", Mode::Planning, options)
        .await;
    let turns: Vec<Mode> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::TurnStarted { mode, .. } => Some(*mode),
            _ => None,
        })
        .collect();
    assert_eq!(turns, vec![Mode::Planning, Mode::Execute]);
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Completed)
    );
    scenario
        .handle
        .ops
        .send(massgen::protocol::Op::ListPlans)
        .await
        .unwrap();
    let listed = loop {
        let event = scenario.handle.events.recv().await.unwrap();
        if let EventMsg::PlansListed { plans } = event.msg {
            break plans;
        }
    };
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, PlanStatus::Completed);
    assert_eq!(listed[0].prompt, "Write a guide");
}

/// A cancelled execution keeps the plan: it is `ready` again (with why it stopped), and
/// `latest` runs it, not an older plan.
#[tokio::test]
async fn a_cancelled_execution_leaves_the_plan_ready_for_latest() {
    let yaml = two_agents("", "");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    scenario
        .submit("Plan a launch party", Mode::Planning, planning("shallow"))
        .await;
    let cancelled = support::run_and_cancel_at_mode(
        &mut scenario.handle,
        Mode::Execute,
        execute("latest"),
        |msg| matches!(msg, EventMsg::TaskPlanChanged { tasks } if !tasks.is_empty()),
    )
    .await;
    assert_eq!(outcome(&cancelled), TurnOutcome::Cancelled);
    let (status, detail, _) = plans(&cancelled).last().cloned().unwrap();
    assert_eq!(status, PlanStatus::Ready);
    assert_eq!(detail.as_deref(), Some("execution was cancelled"));
    let dirs = plan_dirs(scenario.dir.path());
    assert_eq!(metadata(&dirs[0])["status"], "ready");

    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Completed)
    );
}

/// A planning turn that times out keeps a plan its winner had written, but a plan asked
/// to run at once is not run: the user did not see it finish.
#[tokio::test]
async fn a_timed_out_planning_turn_keeps_its_plan_but_does_not_execute_it() {
    let slow_beta = "agents:\n\
         \x20 - id: alpha\n    backend: {type: scripted, tokens_per_second: 0, cwd: workspace}\n\
         \x20 - id: beta\n    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 30000, cwd: workspace}\n\
         timeout_settings: {orchestrator_timeout_seconds: 1}\n";
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), slow_beta);
    let options = TurnOptions {
        auto_execute: true,
        ..planning("shallow")
    };
    let events = scenario
        .submit("Plan a hike", Mode::Planning, options)
        .await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::TimedOut,
        "{:?}",
        transcript(&events)
    );
    assert_eq!(
        plans(&events).last().map(|update| update.0),
        Some(PlanStatus::Ready)
    );
    // No execution turn follows: the next event is the answer to a ListPlans.
    scenario
        .handle
        .ops
        .send(massgen::protocol::Op::ListPlans)
        .await
        .unwrap();
    let next = scenario.handle.events.recv().await.unwrap();
    assert!(
        matches!(next.msg, EventMsg::PlansListed { .. }),
        "{:?}",
        next.msg
    );
}
