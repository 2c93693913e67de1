//! The planning and execution prompts and the progress line.

use super::*;

#[test]
fn the_planning_prompt_wraps_the_question() {
    let prompt = planning_prompt(
        "Build a blog",
        PlanDepth::Shallow,
        BroadcastTarget::Human,
        Some(10),
    );
    assert!(prompt.starts_with("# TASK PLANNING MODE\n\n"));
    assert!(prompt.contains("project_plan.json"));
    assert!(prompt.contains("YOU ARE A PLANNER, NOT AN EXECUTOR"));
    assert!(prompt.contains("### 1. Scope Confirmation (REQUIRED FIRST)"));
    assert!(prompt.contains("`ask_others`"));
    assert!(prompt.contains("- Target tasks: 5-10"));
    assert!(prompt.contains("- Hard limit: at most 10 tasks"));
    assert!(prompt.contains("must form a DAG"));
    assert!(prompt.contains("\"verification_group\""));
    assert!(prompt.ends_with("---\n\nUSER'S REQUEST:\nBuild a blog"));
    let lines = prompt.lines().count();
    assert!((55..=95).contains(&lines), "{lines} lines");
}

#[test]
fn autonomous_planning_decides_without_asking() {
    for broadcast in [BroadcastTarget::Agents, BroadcastTarget::Off] {
        let prompt = planning_prompt("q", PlanDepth::Deep, broadcast, None);
        assert!(prompt.contains("### 1. Scope Analysis (REQUIRED FIRST)"));
        assert!(prompt.contains("MUST decide autonomously"));
        assert!(!prompt.contains("ask_others"));
        assert!(prompt.contains("- Target tasks: 100-200+"));
        assert!(!prompt.contains("Hard limit"));
    }
}

#[test]
fn the_execution_prompt_and_guidance() {
    let prompt = execution_prompt("Build a blog", Some("  use Astro "));
    assert!(prompt.starts_with("# PLAN EXECUTION MODE\n\n"));
    assert!(prompt.contains("AUTO-LOADED into `tasks/plan.json`"));
    assert!(prompt.contains("## Your Task\nBuild a blog\n"));
    assert!(prompt.contains("## Additional Instructions\nuse Astro\n"));
    assert!(prompt.contains("## Getting Started"));
    assert!(prompt.contains("get_ready_tasks()"));
    assert!(prompt.contains("`planning_docs/`"));
    assert!(prompt.ends_with("Begin execution now."));
    assert!(!execution_prompt("q", Some(" ")).contains("Additional Instructions"));
    assert!(!execution_prompt("q", None).contains("Additional Instructions"));
    assert!(EXECUTION_GUIDANCE.starts_with("\n## Plan Execution Mode\n\n"));
    for needle in [
        "tasks/plan.json",
        "get_task_plan",
        "get_ready_tasks",
        "update_task_status",
        "verification_group",
        "clear_task_plan",
        "create_task_plan",
    ] {
        assert!(EXECUTION_GUIDANCE.contains(needle), "{needle}");
    }
}

#[test]
fn progress_lines_round_like_python() {
    let line = |done, total, in_progress, pending| {
        progress_line(&TaskProgress {
            total,
            done,
            in_progress,
            pending,
            blocked: 0,
        })
    };
    assert_eq!(
        line(1, 3, 1, 1),
        "📊 Progress: 1/3 tasks completed (33.3%) | 1 in progress | 1 pending"
    );
    assert_eq!(
        line(2, 3, 0, 1),
        "📊 Progress: 2/3 tasks completed (66.7%) | 0 in progress | 1 pending"
    );
    assert_eq!(
        line(0, 5, 0, 5),
        "📊 Progress: 0/5 tasks completed (0.0%) | 0 in progress | 5 pending"
    );
    assert_eq!(
        line(4, 4, 0, 0),
        "📊 Progress: 4/4 tasks completed (100.0%) | 0 in progress | 0 pending"
    );
    assert_eq!(
        line(1, 8, 0, 7),
        "📊 Progress: 1/8 tasks completed (12.5%) | 0 in progress | 7 pending"
    );
    assert_eq!(
        line(1, 16, 0, 15),
        "📊 Progress: 1/16 tasks completed (6.2%) | 0 in progress | 15 pending"
    );
    assert_eq!(
        line(0, 0, 0, 0),
        "📊 Progress: 0/0 tasks completed (0.0%) | 0 in progress | 0 pending"
    );
}
