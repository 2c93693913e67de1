//! Hostile: plan_files. A repository can ship `.massgen/plans/`: a saved plan's
//! `context_paths` grant agents nothing at `--execute-plan` (a warning names them), a
//! frozen plan over the task ceiling or with a cycle, an unknown or a self dependency is
//! refused with the task ids and the file, plan files that are `/dev/zero`, FIFOs or huge
//! are refused at once, and SIGTERM during a large plan's execution exits 4 promptly.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::signals::send;
use super::support::sandbox::{Sandbox, text};

const PLAN: &str = "plan_20260101_000000_000000";

fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// Writes a ready plan as a repository would ship it: `context_paths` in its metadata and
/// `tasks` as its frozen plan. Returns the plan's directory.
fn ship_plan(
    sandbox: &Sandbox,
    context_paths: serde_json::Value,
    tasks: &[serde_json::Value],
) -> PathBuf {
    let dir = sandbox.massgen_dir().join("plans").join(PLAN);
    std::fs::create_dir_all(dir.join("frozen")).unwrap();
    let metadata = json!({
        "plan_id": PLAN.trim_start_matches("plan_"),
        "created_at": "2026-01-01T00:00:00.000000",
        "planning_prompt": "Do the work",
        "status": "ready",
        "context_paths": context_paths,
    });
    std::fs::write(dir.join("plan_metadata.json"), metadata.to_string()).unwrap();
    std::fs::write(
        dir.join("frozen/plan.json"),
        json!({ "tasks": tasks }).to_string(),
    )
    .unwrap();
    dir
}

/// `count` tasks `T0`, `T1`…; each depends on the one before when `chained`.
fn tasks(count: usize, chained: bool) -> Vec<serde_json::Value> {
    (0..count)
        .map(|index| {
            let depends_on: Vec<String> = if chained && index > 0 {
                vec![format!("T{}", index - 1)]
            } else {
                Vec::new()
            };
            json!({"id": format!("T{index}"), "description": format!("step {index}"), "depends_on": depends_on})
        })
        .collect()
}

/// One scripted agent with a workspace; `extra` is added to its backend block.
fn config(sandbox: &Sandbox, extra: &str) {
    sandbox.write(
        "c.yaml",
        &format!(
            "agents:\n  - id: a\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      cwd: workspace\n      answer: done\n{extra}"
        ),
    );
}

fn execute(sandbox: &Sandbox, extra_args: &[&str], timeout: Duration) -> Output {
    sandbox
        .massgen()
        .args([
            "--config",
            "c.yaml",
            "--display",
            "plain",
            "--execute-plan",
            PLAN,
        ])
        .args(extra_args)
        .write_stdin("")
        .timeout(timeout)
        .output()
        .unwrap()
}

/// Every `events.jsonl` under the sandbox's `.massgen/`, concatenated.
fn events(root: &Path) -> String {
    let mut found = String::new();
    let mut stack = vec![root.join(".massgen")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                stack.push(path);
            } else if path.file_name().is_some_and(|name| name == "events.jsonl") {
                found += &std::fs::read_to_string(&path).unwrap_or_default();
            }
        }
    }
    found
}

/// The case: a shipped plan grants `/` to read and a directory outside the project
/// to write. Agents get neither (also with `--allow-outside-project`, which grants nothing
/// by itself), and a warning names the file and both entries. Granted in the config, the
/// same directory is writable as before.
#[test]
fn a_shipped_plan_metadata_grants_agents_nothing_at_execute_plan() {
    let sandbox = Sandbox::new();
    let outside = tempfile::tempdir().unwrap();
    let outside = outside.path().canonicalize().unwrap();
    let (readable, writable) = (outside.join("readable"), outside.join("writable"));
    std::fs::create_dir_all(&readable).unwrap();
    std::fs::create_dir_all(&writable).unwrap();
    std::fs::write(readable.join("secret.txt"), "the secret").unwrap();
    ship_plan(
        &sandbox,
        json!([{"path": writable, "permission": "write"}, {"path": "/", "permission": "read"}]),
        &tasks(2, false),
    );
    let calls = format!(
        "      tool_calls:\n        - {{name: mcp__filesystem__read_text_file, arguments: {{path: \"{}\"}}}}\n      final_tool_calls:\n        - {{name: mcp__filesystem__write_file, arguments: {{path: \"{}\", content: pwned}}}}\n",
        readable.join("secret.txt").display(),
        writable.join("pwned.txt").display()
    );
    config(&sandbox, &calls);
    for flags in [&[][..], &["--allow-outside-project"][..]] {
        let output = execute(&sandbox, flags, Duration::from_secs(60));
        assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
        assert!(
            !writable.join("pwned.txt").exists(),
            "{}",
            describe(&output)
        );
        let stdout = text(&output.stdout);
        let warning = stdout
            .lines()
            .find(|line| line.contains("does not grant"))
            .unwrap_or_else(|| panic!("no warning\n{}", describe(&output)));
        assert!(warning.contains("plan_metadata.json"), "{warning}");
        assert!(
            warning.contains(&format!("{:?} (write)", writable.display().to_string())),
            "{warning}"
        );
        assert!(warning.contains("\"/\" (read)"), "{warning}");
        let logged = events(&sandbox.root);
        assert!(
            !logged.contains("the secret"),
            "the agent read outside: {logged}"
        );
        std::fs::remove_dir_all(sandbox.massgen_dir().join("massgen_logs")).unwrap();
    }
    // What the config grants stays granted.
    sandbox.write(
        "c.yaml",
        &format!(
            "{}orchestrator:\n  context_paths:\n    - {{path: \"{}\", permission: write}}\n",
            std::fs::read_to_string(sandbox.root.join("c.yaml")).unwrap(),
            writable.display()
        ),
    );
    let output = execute(
        &sandbox,
        &["--allow-outside-project"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    assert_eq!(
        std::fs::read_to_string(writable.join("pwned.txt")).unwrap(),
        "pwned",
        "{}",
        describe(&output)
    );
}

/// 100,000 tasks: refused before anything runs, naming the file and the ceiling.
#[test]
fn a_frozen_plan_over_the_task_ceiling_is_refused_at_once() {
    let sandbox = Sandbox::new();
    config(&sandbox, "");
    ship_plan(&sandbox, json!([]), &tasks(100_000, true));
    let started = Instant::now();
    let output = execute(&sandbox, &[], Duration::from_secs(30));
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let stderr = text(&output.stderr);
    for needle in ["100000 tasks", "limit of 1000", "frozen/plan.json", "help:"] {
        assert!(stderr.contains(needle), "{needle:?}\n{}", describe(&output));
    }
}

/// A plan at the ceiling, each task waiting on the one before: loading, checking and
/// asking which tasks are ready (twenty times over 1,000 tasks) take no time to speak of.
#[test]
fn a_plan_at_the_ceiling_is_checked_quickly() {
    let sandbox = Sandbox::new();
    config(&sandbox, "");
    ship_plan(&sandbox, json!([]), &tasks(1000, true));
    let started = Instant::now();
    let output = execute(&sandbox, &[], Duration::from_secs(120));
    // The scripted agent works through a few of the 1,000 tasks in its reply budget: the
    // plan ends partial, and a plan left unfinished exits 2.
    assert_eq!(output.status.code(), Some(2), "{}", describe(&output));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("executing plan"), "{}", describe(&output));
    assert!(stdout.contains("partial"), "{}", describe(&output));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

/// A cycle, an unknown and a self dependency are checked again when the plan is loaded.
#[test]
fn bad_dependencies_in_a_frozen_plan_are_refused_with_the_task_ids() {
    let cases = [
        (
            json!([{"id": "A", "description": "a", "depends_on": ["B"]}, {"id": "B", "description": "b", "depends_on": ["A"]}]),
            "A → B → A",
        ),
        (
            json!([{"id": "A", "description": "a", "depends_on": ["ghost"]}]),
            "`A` depends on `ghost`",
        ),
        (
            json!([{"id": "A", "description": "a", "depends_on": ["A"]}]),
            "`A` depends on itself",
        ),
    ];
    for (plan, needle) in cases {
        let sandbox = Sandbox::new();
        config(&sandbox, "");
        ship_plan(&sandbox, json!([]), plan.as_array().unwrap());
        let output = execute(&sandbox, &[], Duration::from_secs(30));
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let stderr = text(&output.stderr);
        assert!(stderr.contains(needle), "{needle:?}\n{}", describe(&output));
        assert!(stderr.contains("frozen/plan.json"), "{}", describe(&output));
        assert!(
            !events(&sandbox.root).contains("turn_started"),
            "no turn ran"
        );
    }
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// `/dev/zero`, a FIFO and a huge sparse file in place of `plan_metadata.json` or
/// `frozen/plan.json`: each refused at once, saying what it is.
#[test]
fn special_and_huge_plan_files_are_refused_without_hanging() {
    type Plant = fn(&Path);
    let plants: [(&str, Plant, &str); 3] = [
        (
            "dev/zero",
            |path| std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
            "symbolic link",
        ),
        ("fifo", mkfifo, "FIFO"),
        (
            "huge",
            |path| {
                std::fs::File::create(path)
                    .unwrap()
                    .set_len(1 << 32)
                    .unwrap()
            },
            "larger than 8 MiB",
        ),
    ];
    for file in ["plan_metadata.json", "frozen/plan.json"] {
        for (name, plant, needle) in plants {
            let sandbox = Sandbox::new();
            config(&sandbox, "");
            let dir = ship_plan(&sandbox, json!([]), &tasks(2, false));
            std::fs::remove_file(dir.join(file)).unwrap();
            plant(&dir.join(file));
            let started = Instant::now();
            let output = execute(&sandbox, &[], Duration::from_secs(20));
            let what = format!("{file} as {name}\n{}", describe(&output));
            assert_eq!(output.status.code(), Some(1), "{what}");
            assert!(started.elapsed() < Duration::from_secs(10), "{what}");
            let stderr = text(&output.stderr);
            assert!(stderr.contains(needle), "{needle:?}: {what}");
            assert!(
                stderr.contains(file.trim_start_matches("frozen/")),
                "{what}"
            );
        }
    }
}

fn spawn_execute(sandbox: &Sandbox) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_massgen"))
        .args([
            "--config",
            "c.yaml",
            "--display",
            "plain",
            "--execute-plan",
            PLAN,
        ])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends SIGTERM unless `child` has already exited, and waits at most `limit` for it.
fn terminate(mut child: std::process::Child, limit: Duration) -> Output {
    if child.try_wait().unwrap().is_none() {
        send(child.id(), "TERM");
    }
    let signalled = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if signalled.elapsed() > limit {
            let _ = child.kill();
            panic!("massgen did not exit within {limit:?} of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGTERM while a plan at the ceiling is being carried out: cancelled, exit 4, promptly.
#[test]
fn sigterm_during_a_large_plan_execution_exits_4_promptly() {
    let sandbox = Sandbox::new();
    config(&sandbox, "");
    ship_plan(&sandbox, json!([]), &tasks(1000, false));
    let child = spawn_execute(&sandbox);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !events(&sandbox.root).contains("update_task_status") {
        assert!(
            Instant::now() < deadline,
            "the execution never reached the tasks"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = terminate(child, Duration::from_secs(15));
    assert_eq!(output.status.code(), Some(4), "{}", text(&output.stderr));
}

/// The case: a 100,000-task plan no longer spins where SIGTERM cannot reach —
/// refused (1) before the signal, or cancelled (4) by it.
#[test]
fn sigterm_reaches_massgen_given_a_100000_task_plan() {
    let sandbox = Sandbox::new();
    config(&sandbox, "");
    ship_plan(&sandbox, json!([]), &tasks(100_000, true));
    let mut child = spawn_execute(&sandbox);
    // Until massgen has exited, or asks which tasks are ready (where it used to spin).
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none()
        && !events(&sandbox.root).contains("get_ready_tasks")
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = terminate(child, Duration::from_secs(10));
    let code = output.status.code();
    assert!(
        matches!(code, Some(1 | 4)),
        "{code:?}: {}",
        text(&output.stderr)
    );
}
