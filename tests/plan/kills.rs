//! Saved plans survive a killed `massgen --plan` run: `kill -9` while the agents are still
//! planning, and a debug-build abort (`MASSGEN_FAULT`) at every step of finalisation. After
//! each, every JSON file under `.massgen/` is whole, no half plan is listed,
//! `--execute-plan latest` carries out the newest whole plan (and only it), and the half
//! plan is left as it was. Also: an unknown `--execute-plan` id exits 1 and says what was
//! looked for and how to make a plan.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod harness;

use std::os::unix::process::ExitStatusExt;

use crate::support::sandbox::{Sandbox, text};
use harness::*;
use massgen::protocol::PlanStatus;
use serde_json::Value;

/// A whole plan, then a second `--plan` killed with SIGKILL at the moment `ready` picks:
/// the half plan stays `planning`, is never listed nor run, and `latest` runs the first.
fn killed_while_planning(ready: impl Fn(&str, &str) -> bool) {
    let sandbox = sandbox();
    let first = whole_plan(&sandbox, "First plan");
    let half = plan_then_kill(&sandbox, "Second plan", ready);
    assert!(half > first, "plans sort by creation: {first} then {half}");

    assert!(every_json_file_is_whole(&sandbox) > 0);
    assert_eq!(status(&sandbox, &half), "planning", "the killed plan");
    assert!(
        !plans_root(&sandbox).join(&half).join("frozen").exists(),
        "nothing of {half} was frozen"
    );
    assert_eq!(
        listed(&sandbox),
        [(first.clone(), PlanStatus::Ready)],
        "only the whole plan is listed"
    );

    let by_id = massgen(&sandbox)
        .args(["--execute-plan", &half])
        .output()
        .unwrap();
    let stderr = text(&by_id.stderr);
    assert_eq!(
        by_id.status.code(),
        Some(1),
        "--execute-plan {half}: {stderr}"
    );
    assert!(
        stderr.contains(&half) && stderr.contains("unfinished"),
        "says {half} is unfinished: {stderr}"
    );

    execute_latest_runs(&sandbox, &first, &[&half]);
    untouched(&sandbox, &half, "planning");
    assert_eq!(listed(&sandbox), [(first, PlanStatus::Completed)]);
    every_json_file_is_whole(&sandbox);
}

#[test]
fn killed_as_soon_as_the_plan_directory_exists() {
    killed_while_planning(|_, _| true);
}

#[test]
fn killed_after_one_agent_wrote_its_plan_and_answered() {
    killed_while_planning(|_, stdout| {
        stdout.contains("[a] ✓ mcp__filesystem__write_file") && stdout.contains("[a] ✔ answer")
    });
}

/// A whole plan, then a `--plan` run aborted at fault `point` of finalisation. Before the
/// commit point the new plan stays `planning` and `latest` runs the first plan; at
/// `plan_finalize_committed` the new plan is whole and `ready`, and `latest` runs it.
fn aborted_during_finalisation(point: &str) {
    if !cfg!(debug_assertions) {
        eprintln!("skipped: MASSGEN_FAULT works in debug builds only");
        return;
    }
    let committed = point == "plan_finalize_committed";
    let sandbox = sandbox();
    let first = whole_plan(&sandbox, "First plan");
    let before = plan_ids(&sandbox);
    let output = massgen(&sandbox)
        .env("MASSGEN_FAULT", point)
        .args(["--plan", "Second plan"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.signal(),
        Some(SIGABRT),
        "MASSGEN_FAULT={point} should abort the run, got {:?}:\n{}\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
    let second = new_plan(&before, &plan_ids(&sandbox));
    assert!(
        second > first,
        "plans sort by creation: {first} then {second}"
    );
    assert!(every_json_file_is_whole(&sandbox) > 0);
    let dir = plans_root(&sandbox).join(&second);
    // What the plan directory holds proves the abort came where `point` says.
    let (present, absent): (&[&str], &[&str]) = match point {
        "plan_finalize_copied" => (
            &[".finalize.tmp/workspace/project_plan.json"],
            &[".finalize.tmp/workspace/plan.json", "frozen"],
        ),
        "plan_finalize_renamed" => (
            &[".finalize.tmp/workspace/plan.json"],
            &[
                ".finalize.tmp/workspace/project_plan.json",
                ".finalize.tmp/frozen",
                "frozen",
            ],
        ),
        "plan_finalize_frozen" => (
            &[
                ".finalize.tmp/frozen/plan.json",
                ".finalize.tmp/workspace/plan.json",
            ],
            &["frozen", "workspace"],
        ),
        "plan_finalize_swapped" => (
            &["frozen/plan.json", "workspace/plan.json"],
            &["plan_diff.json"],
        ),
        "plan_finalize_diff" | "plan_finalize_committed" => (
            &["frozen/plan.json", "workspace/plan.json", "plan_diff.json"],
            &[],
        ),
        other => panic!("unknown fault point {other}"),
    };
    let layout: Vec<String> = walkdir::WalkDir::new(&dir)
        .min_depth(1)
        .into_iter()
        .flatten()
        .map(|entry| {
            entry
                .path()
                .strip_prefix(&dir)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    for path in present {
        assert!(
            dir.join(path).exists(),
            "{point}: {path} should exist in {layout:?}"
        );
    }
    for path in absent {
        assert!(
            !dir.join(path).exists(),
            "{point}: {path} should not exist in {layout:?}"
        );
    }
    let log = std::fs::read_to_string(dir.join("execution_log.jsonl")).unwrap();
    assert!(
        !log.contains("planning_finalized"),
        "{point} comes before `planning_finalized` is logged: {log}"
    );

    if committed {
        assert_eq!(status(&sandbox, &second), "ready", "committed at {point}");
        let frozen = std::fs::read(dir.join("frozen/plan.json")).unwrap();
        let frozen: Value = serde_json::from_slice(&frozen)
            .unwrap_or_else(|error| panic!("{second}/frozen/plan.json: {error}"));
        assert_eq!(
            frozen["tasks"].as_array().map(Vec::len),
            Some(20),
            "{second}'s frozen plan is whole: {frozen:#}"
        );
        assert_eq!(
            listed(&sandbox),
            [
                (second.clone(), PlanStatus::Ready),
                (first.clone(), PlanStatus::Ready)
            ],
            "the committed plan is listed"
        );
        execute_latest_runs(&sandbox, &second, &[&first]);
        untouched(&sandbox, &first, "ready");
    } else {
        assert_eq!(
            status(&sandbox, &second),
            "planning",
            "aborted at {point}, before the commit point"
        );
        assert_eq!(
            listed(&sandbox),
            [(first.clone(), PlanStatus::Ready)],
            "a plan aborted at {point} is not listed"
        );
        execute_latest_runs(&sandbox, &first, &[&second]);
        untouched(&sandbox, &second, "planning");
    }
    every_json_file_is_whole(&sandbox);
}

#[test]
fn aborted_after_copying_the_winners_folder() {
    aborted_during_finalisation("plan_finalize_copied");
}

#[test]
fn aborted_after_writing_plan_json() {
    aborted_during_finalisation("plan_finalize_renamed");
}

#[test]
fn aborted_after_building_the_frozen_copy() {
    aborted_during_finalisation("plan_finalize_frozen");
}

#[test]
fn aborted_after_swapping_frozen_and_workspace_in() {
    aborted_during_finalisation("plan_finalize_swapped");
}

#[test]
fn aborted_after_writing_plan_diff() {
    aborted_during_finalisation("plan_finalize_diff");
}

#[test]
fn aborted_right_after_the_commit_point() {
    aborted_during_finalisation("plan_finalize_committed");
}

/// `--execute-plan plan_does_not_exist`: its exit code and standard error.
fn execute_unknown_id(sandbox: &Sandbox) -> (Option<i32>, String) {
    let output = massgen(sandbox)
        .args(["--execute-plan", "plan_does_not_exist"])
        .output()
        .unwrap();
    (output.status.code(), text(&output.stderr))
}

#[test]
fn an_unknown_plan_id_with_no_plans_exits_1() {
    let sandbox = sandbox();
    let (code, stderr) = execute_unknown_id(&sandbox);
    assert_eq!(code, Some(1), "unknown id: {stderr}");
    let root = plans_root(&sandbox).display().to_string();
    for (wanted, what) in [
        ("plan_does_not_exist", "what was looked for"),
        (root.as_str(), "where it looked"),
        ("massgen --plan", "how to make a plan"),
    ] {
        assert!(stderr.contains(wanted), "says {what} ({wanted}): {stderr}");
    }
    assert!(plan_ids(&sandbox).is_empty(), "refusing made no plan");
}

/// With a whole plan and a half one saved, the refusal names the id, says how to make a
/// plan, and suggests only whole plans.
#[test]
fn an_unknown_plan_id_among_saved_plans_exits_1_and_lists_no_half_plan() {
    let sandbox = sandbox();
    let first = whole_plan(&sandbox, "First plan");
    let half = plan_then_kill(&sandbox, "Second plan", |_, _| true);
    let (code, stderr) = execute_unknown_id(&sandbox);
    assert_eq!(code, Some(1), "unknown id: {stderr}");
    let mut problems = Vec::new();
    if !stderr.contains("plan_does_not_exist") {
        problems.push("does not name the id looked for".to_string());
    }
    if !stderr.contains("massgen --plan") {
        problems.push("does not say how to make a plan (`massgen --plan \"…\"`)".to_string());
    }
    if stderr.contains(&half) {
        problems.push(format!(
            "offers the half plan {half} (status `planning`) among the recent plans"
        ));
    }
    if !stderr.contains(&first) {
        problems.push(format!("does not suggest the whole plan {first}"));
    }
    assert!(
        problems.is_empty(),
        "BUG: the refusal of an unknown --execute-plan id {}:\n{stderr}",
        problems.join("; ")
    );
}
