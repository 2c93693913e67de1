//! How an executed plan ends, through the real binary: a plan whose agents leave tasks
//! open ends partial with the count done on every line, in `plan_metadata.json` and in
//! the exit code; a plan carried out whole ends completed with exit 0. And the plain
//! display lists a new plan's tasks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::support::sandbox::Sandbox;

/// Two scripted agents with workspaces whose planning turn writes `plan`.
fn config(plan: &str) -> String {
    let agent = |id: &str| {
        format!(
            "  - id: {id}\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
             cwd: workspace\n      vote_for: a\n      plan:\n{plan}"
        )
    };
    format!("agents:\n{}{}", agent("a"), agent("b"))
}

/// t2 starts blocked and t3 waits on it, so the agents can finish only t1.
const LEFT_OPEN: &str = "        - {id: t1, description: \"Lay the table\"}\n        \
                         - {id: t2, description: \"Fetch the cake\", status: blocked}\n        \
                         - {id: t3, description: \"Light the candles\", depends_on: [t2]}\n";

const WHOLE: &str = "        - {id: t1, description: \"Lay the table\"}\n        \
                     - {id: t2, description: \"Fetch the cake\", depends_on: [t1]}\n        \
                     - {id: t3, description: \"Light the candles\", depends_on: [t2]}\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(sandbox: &Sandbox, args: &[&str]) -> Output {
    sandbox
        .massgen()
        .args(["--config", "run.yaml"])
        .args(args)
        .timeout(Duration::from_secs(90))
        .output()
        .unwrap()
}

/// Plans in the plain display and returns the one plan's directory.
fn plan(sandbox: &Sandbox, tasks: &str) -> PathBuf {
    sandbox.write("run.yaml", &config(tasks));
    let planned = run(sandbox, &["--display", "plain", "--plan", "Plan a party"]);
    assert_eq!(
        planned.status.code(),
        Some(0),
        "{}\n{}",
        text(&planned.stdout),
        text(&planned.stderr)
    );
    let dirs: Vec<PathBuf> = std::fs::read_dir(sandbox.massgen_dir().join("plans"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

fn metadata(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("plan_metadata.json")).unwrap()).unwrap()
}

#[test]
fn the_plain_display_lists_a_new_plans_tasks_with_their_dependencies() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", &config(WHOLE));
    let planned = run(&sandbox, &["--display", "plain", "--plan", "Plan a party"]);
    let stdout = text(&planned.stdout);
    assert_eq!(planned.status.code(), Some(0), "{stdout}");
    let ready = stdout.find("is ready: 3 tasks").expect(&stdout);
    let listed = &stdout[ready..];
    for line in [
        "   t1 Lay the table\n",
        "   t2 Fetch the cake (after t1)\n",
        "   t3 Light the candles (after t2)\n",
    ] {
        assert!(listed.contains(line), "{line:?} missing from:\n{stdout}");
    }
    assert!(
        listed.contains("run it with: massgen --execute-plan plan_"),
        "{stdout}"
    );
}

#[test]
fn a_plan_left_with_open_tasks_ends_partial_and_exits_2_under_automation() {
    let sandbox = Sandbox::new();
    let dir = plan(&sandbox, LEFT_OPEN);

    let executed = run(&sandbox, &["--automation", "--execute-plan", "latest"]);
    let stderr = text(&executed.stderr);
    assert_eq!(executed.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is partial: 1/3 tasks done, open: t2 blocked, t3 pending"),
        "{stderr}"
    );
    assert!(!stderr.contains("is completed"), "{stderr}");

    // MassGen's name for a plan to run again, and how far it got.
    let meta = metadata(&dir);
    assert_eq!(meta["status"], "resumable", "{meta:#}");
    assert_eq!(
        meta["resumable_state"]["reason"], "tasks_incomplete",
        "{meta:#}"
    );
    let progress = &meta["execution_progress"];
    assert_eq!(progress["total_tasks"], 3, "{meta:#}");
    assert_eq!(progress["completed_count"], 1, "{meta:#}");
    assert_eq!(
        progress["open_tasks"],
        serde_json::json!([{"id": "t2", "status": "blocked"}, {"id": "t3", "status": "pending"}])
    );
    let log = std::fs::read_to_string(dir.join("execution_log.jsonl")).unwrap();
    assert!(log.contains("\"execution_incomplete\""), "{log}");
    assert!(!log.contains("\"execution_completed\""), "{log}");

    // A partial plan may run again, and says the same in the plain display.
    let again = run(
        &sandbox,
        &["--display", "plain", "--execute-plan", "latest"],
    );
    let stdout = text(&again.stdout);
    assert_eq!(again.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("partial: 1/3 tasks done · open: t2 blocked, t3 pending"),
        "{stdout}"
    );
    assert!(!stdout.contains("followed the plan at"), "{stdout}");
    assert!(!stdout.contains("✓ plan"), "{stdout}");
}

#[test]
fn a_plan_carried_out_whole_ends_completed_and_exits_0() {
    let sandbox = Sandbox::new();
    let dir = plan(&sandbox, WHOLE);

    let executed = run(&sandbox, &["--automation", "--execute-plan", "latest"]);
    let stderr = text(&executed.stderr);
    assert_eq!(executed.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("is completed: 3/3 tasks done"), "{stderr}");

    let meta = metadata(&dir);
    assert_eq!(meta["status"], "completed", "{meta:#}");
    assert_eq!(meta["execution_progress"]["completed_count"], 3, "{meta:#}");
    assert_eq!(
        meta["execution_progress"]["open_tasks"],
        serde_json::json!([])
    );
    assert!(meta.get("resumable_state").is_none(), "{meta:#}");
}
