//! Saved plans survive a killed `massgen --plan` run: `kill -9` while the agents are still
//! planning, and a debug-build abort (`MASSGEN_FAULT`) at every step of finalisation. After
//! each, every JSON file under `.massgen/` is whole, no half plan is listed,
//! `--execute-plan latest` carries out the newest whole plan (and only it), and the half
//! plan is left as it was. Also: an unknown `--execute-plan` id exits 1 and says what was
//! looked for and how to make a plan.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use massgen::plan::PlanStore;
use massgen::protocol::PlanStatus;
use serde_json::Value;
use support::sandbox::{Sandbox, text};

/// Two scripted planners that finish a planning turn in a few milliseconds.
const FAST: &str = r"agents:
  - {id: a, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
  - {id: b, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
";

/// `a` answers at once; `b` waits 5 s before every reply, so the turn cannot reach
/// finalisation for at least 5 s: the window in which the run is killed.
const SLOW: &str = r"agents:
  - {id: a, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
  - {id: b, backend: {type: scripted, tokens_per_second: 0, first_token_ms: 5000, cwd: workspace}}
";

const SIGKILL: i32 = 9;
const SIGABRT: i32 = 6;

fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("fast.yaml", FAST);
    sandbox.write("slow.yaml", SLOW);
    sandbox
}

/// `massgen --config fast.yaml --display plain` with no fault armed.
fn massgen(sandbox: &Sandbox) -> assert_cmd::Command {
    let mut cmd = sandbox.massgen();
    cmd.env_remove("MASSGEN_FAULT")
        .args(["--config", "fast.yaml", "--display", "plain"]);
    cmd
}

fn plans_root(sandbox: &Sandbox) -> PathBuf {
    sandbox.massgen_dir().join("plans")
}

/// The `plan_*` directory names, oldest first.
fn plan_ids(sandbox: &Sandbox) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(plans_root(sandbox))
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|entry| entry.file_name().into_string().ok())
                .filter(|name| name.starts_with("plan_"))
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

fn metadata(sandbox: &Sandbox, id: &str) -> Value {
    let path = plans_root(sandbox).join(id).join("plan_metadata.json");
    let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|error| {
        panic!(
            "{} is not whole ({error}): {}",
            path.display(),
            text(&bytes)
        )
    })
}

fn status(sandbox: &Sandbox, id: &str) -> String {
    metadata(sandbox, id)["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The one plan directory in `after` that is not in `before`.
fn new_plan(before: &[String], after: &[String]) -> String {
    let new: Vec<&String> = after.iter().filter(|id| !before.contains(id)).collect();
    assert_eq!(
        new.len(),
        1,
        "one new plan directory: before {before:?}, after {after:?}"
    );
    new[0].clone()
}

/// Makes a whole plan with the fast agents and returns its id.
fn whole_plan(sandbox: &Sandbox, question: &str) -> String {
    let before = plan_ids(sandbox);
    let output = massgen(sandbox)
        .arg("--plan")
        .arg(question)
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "--plan {question:?} should succeed:\n{stdout}\n{}",
        text(&output.stderr)
    );
    let id = new_plan(&before, &plan_ids(sandbox));
    assert!(
        stdout.contains(&format!("plan {id} is ready: 5 tasks")),
        "{stdout}"
    );
    assert_eq!(
        status(sandbox, &id),
        "ready",
        "{id} after a whole --plan run"
    );
    id
}

/// The plans `PlanStore::list` shows (what the TUI's plan picker lists), newest first.
fn listed(sandbox: &Sandbox) -> Vec<(String, PlanStatus)> {
    PlanStore::new(&sandbox.massgen_dir())
        .list(10)
        .into_iter()
        .map(|plan| (plan.id, plan.status))
        .collect()
}

/// Every `*.json` under `.massgen/` parses, and every line of every `*.jsonl` does.
fn every_json_file_is_whole(sandbox: &Sandbox) -> usize {
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(sandbox.massgen_dir()) {
        let entry = entry.unwrap();
        let path = entry.path();
        let extension = path.extension().and_then(|ext| ext.to_str());
        if !entry.file_type().is_file() || !matches!(extension, Some("json" | "jsonl")) {
            continue;
        }
        let content = std::fs::read_to_string(path).unwrap();
        let documents: Vec<&str> = if extension == Some("json") {
            vec![content.as_str()]
        } else {
            content.lines().collect()
        };
        for document in documents {
            if let Err(error) = serde_json::from_str::<Value>(document) {
                panic!(
                    "{} is truncated or broken ({error}):\n{content}",
                    path.display()
                );
            }
        }
        checked += 1;
    }
    checked
}

/// Runs `--plan question` with the slow agents and kills it with SIGKILL once `ready`
/// holds for the new plan's id and the stdout so far. Returns the killed plan's id.
fn plan_then_kill(sandbox: &Sandbox, question: &str, ready: impl Fn(&str, &str) -> bool) -> String {
    let before = plan_ids(sandbox);
    let mut command = Command::new(env!("CARGO_BIN_EXE_massgen"));
    command
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("XDG_CONFIG_HOME", sandbox.root.join("home/.config"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .env_remove("MASSGEN_FAULT")
        .args([
            "--config",
            "slow.yaml",
            "--display",
            "plain",
            "--plan",
            question,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (key, _) in std::env::vars() {
        if key.ends_with("_API_KEY") || key == "AZURE_OPENAI_ENDPOINT" {
            command.env_remove(key);
        }
    }
    let mut child = command.spawn().unwrap();
    let stdout = Arc::new(Mutex::new(String::new()));
    let reader = {
        let pipe = child.stdout.take().unwrap();
        let stdout = Arc::clone(&stdout);
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let mut seen = stdout.lock().unwrap();
                seen.push_str(&line);
                seen.push('\n');
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let half = loop {
        let half = plan_ids(sandbox)
            .into_iter()
            .find(|id| !before.contains(id))
            .filter(|id| {
                let path = plans_root(sandbox).join(id).join("plan_metadata.json");
                std::fs::read(path)
                    .ok()
                    .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
                    .is_some_and(|meta| meta["status"] == "planning")
            });
        if let Some(id) = half
            && ready(&id, &stdout.lock().unwrap())
        {
            break id;
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the moment to kill never came (plans {:?}):\n{}",
                plan_ids(sandbox),
                stdout.lock().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    child.kill().unwrap();
    let exit = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(
        exit.signal(),
        Some(SIGKILL),
        "the run was still going when killed: {exit:?}\n{}",
        stdout.lock().unwrap()
    );
    let seen = stdout.lock().unwrap().clone();
    assert!(
        !seen.contains("is ready"),
        "killed before finalisation:\n{seen}"
    );
    assert_eq!(
        new_plan(&before, &plan_ids(sandbox)),
        half,
        "the killed run made exactly one plan directory"
    );
    half
}

/// `--execute-plan latest` exits 0, carried out `expected` (now `completed`, with the
/// execution recorded) and named no other plan. Returns its stdout.
fn execute_latest_runs(sandbox: &Sandbox, expected: &str, others: &[&str]) -> String {
    let output = massgen(sandbox)
        .args(["--execute-plan", "latest"])
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "--execute-plan latest should run {expected}:\n{stdout}\n{}",
        text(&output.stderr)
    );
    assert!(
        stdout.contains(&format!("Executing {expected}")),
        "--execute-plan latest should execute {expected}:\n{stdout}"
    );
    assert!(
        stdout.contains(&format!("plan {expected} completed")),
        "{expected} should complete:\n{stdout}"
    );
    for other in others {
        assert!(
            !stdout.contains(other),
            "--execute-plan latest named {other} while running {expected}:\n{stdout}"
        );
    }
    let meta = metadata(sandbox, expected);
    assert_eq!(meta["status"], "completed", "{expected}: {meta:#}");
    assert!(
        meta["execution_session_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("log_")),
        "{expected} records its execution session: {meta:#}"
    );
    stdout
}

/// `id` was never executed: its status is `want` and it records no execution.
fn untouched(sandbox: &Sandbox, id: &str, want: &str) {
    let meta = metadata(sandbox, id);
    assert_eq!(
        (meta["status"].as_str(), &meta["execution_session_id"]),
        (Some(want), &Value::Null),
        "{id} should be left `{want}` and unexecuted: {meta:#}"
    );
}

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
            Some(5),
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
