//! The plan flags of the real binary in the plain display: `--plan` then `--execute-plan
//! latest` in the offline demo, `--plan-and-execute`, and bad plan arguments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::sandbox::Sandbox;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn plan_dirs(sandbox: &Sandbox) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(sandbox.massgen_dir().join("plans"))
        .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn status(dir: &std::path::Path) -> String {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plan_metadata.json")).unwrap())
            .unwrap();
    meta["status"].as_str().unwrap_or_default().to_string()
}

/// The README's two commands: plan in the demo, then carry the plan out.
#[test]
fn the_demo_plans_then_executes_the_latest_plan() {
    let sandbox = Sandbox::new();
    let planned = sandbox
        .massgen()
        .args(["--display", "plain", "--plan", "--plan-depth", "shallow"])
        .arg("Plan a picnic for twelve")
        .timeout(std::time::Duration::from_secs(90))
        .output()
        .unwrap();
    let stdout = text(&planned.stdout);
    assert_eq!(
        planned.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&planned.stderr)
    );
    assert!(stdout.contains("Planning (shallow depth)"), "{stdout}");
    assert!(stdout.contains("is ready: 5 tasks"), "{stdout}");
    assert!(
        stdout.contains("run it with: massgen --execute-plan plan_"),
        "{stdout}"
    );
    // No terminal to answer on: the agents were not offered a question to the user.
    assert!(
        text(&planned.stderr).is_empty() || !stdout.contains("asks you"),
        "{stdout}"
    );
    let dirs = plan_dirs(&sandbox);
    assert_eq!(dirs.len(), 1);
    assert_eq!(status(&dirs[0]), "ready");

    let executed = sandbox
        .massgen()
        .args(["--display", "plain", "--execute-plan", "latest"])
        .timeout(std::time::Duration::from_secs(90))
        .output()
        .unwrap();
    let stdout = text(&executed.stdout);
    assert_eq!(
        executed.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&executed.stderr)
    );
    assert!(stdout.contains("Executing plan_"), "{stdout}");
    assert!(stdout.contains("5/5 tasks"), "{stdout}");
    assert!(
        stdout.contains("completed: 5/5 tasks done · followed the plan at 100%"),
        "{stdout}"
    );
    assert_eq!(status(&dirs[0]), "completed");
}

#[test]
fn plan_and_execute_runs_both_turns_with_one_exit_code() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "fast.yaml",
        "agents:\n  - {id: a, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}\n  - {id: b, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}\n",
    );
    let output = sandbox
        .massgen()
        .args([
            "--config",
            "fast.yaml",
            "--display",
            "plain",
            "--plan-and-execute",
        ])
        .arg("Write a checklist")
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Turn 1 · Planning"), "{stdout}");
    assert!(stdout.contains("Turn 2 · Executing plan_"), "{stdout}");
    assert_eq!(status(&plan_dirs(&sandbox)[0]), "completed");
}

#[test]
fn bad_plan_arguments_exit_1_and_say_how_to_fix_them() {
    let sandbox = Sandbox::new();
    let missing = sandbox
        .massgen()
        .args(["--display", "plain", "--execute-plan", "latest"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    let stderr = text(&missing.stderr);
    assert!(stderr.contains("--execute-plan latest"), "{stderr}");
    assert!(
        stderr.contains("--plan"),
        "says how to make a plan: {stderr}"
    );

    let both = sandbox
        .massgen()
        .args(["--plan", "--execute-plan", "latest", "q"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(1));

    let depth = sandbox
        .massgen()
        .args(["--plan", "--plan-depth", "bottomless", "q"])
        .output()
        .unwrap();
    assert_eq!(depth.status.code(), Some(1));
    assert!(text(&depth.stderr).contains("shallow, medium, deep"));

    // Planning without workspaces is refused with the fix, and exits as a failed turn.
    sandbox.write(
        "bare.yaml",
        "agents:\n  - {id: a, backend: {type: scripted, tokens_per_second: 0}}\n",
    );
    let bare = sandbox
        .massgen()
        .args(["--config", "bare.yaml", "--display", "plain", "--plan", "q"])
        .output()
        .unwrap();
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        text(&bare.stdout).contains("cwd: workspace"),
        "{}",
        text(&bare.stdout)
    );
}
