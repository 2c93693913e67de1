//! The kill tests' sandbox: fast and slow scripted planners, plan directories and their
//! metadata, runs killed or aborted at a chosen moment, and the checks made after each.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use massgen::plan::PlanStore;
use massgen::protocol::PlanStatus;
use serde_json::Value;

use crate::support::sandbox::{Sandbox, text};

/// Two scripted planners that finish a planning turn in a few milliseconds.
pub(crate) const FAST: &str = r"agents:
  - {id: a, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
  - {id: b, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
";

/// `a` answers at once; `b` waits 5 s before every reply, so the turn cannot reach
/// finalisation for at least 5 s: the window in which the run is killed.
pub(crate) const SLOW: &str = r"agents:
  - {id: a, backend: {type: scripted, tokens_per_second: 0, cwd: workspace}}
  - {id: b, backend: {type: scripted, tokens_per_second: 0, first_token_ms: 5000, cwd: workspace}}
";

pub(crate) const SIGKILL: i32 = 9;
pub(crate) const SIGABRT: i32 = 6;

pub(crate) fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("fast.yaml", FAST);
    sandbox.write("slow.yaml", SLOW);
    sandbox
}

/// `massgen --config fast.yaml --display plain` with no fault armed.
pub(crate) fn massgen(sandbox: &Sandbox) -> assert_cmd::Command {
    let mut cmd = sandbox.massgen();
    cmd.env_remove("MASSGEN_FAULT")
        .args(["--config", "fast.yaml", "--display", "plain"]);
    cmd
}

pub(crate) fn plans_root(sandbox: &Sandbox) -> PathBuf {
    sandbox.massgen_dir().join("plans")
}

/// The `plan_*` directory names, oldest first.
pub(crate) fn plan_ids(sandbox: &Sandbox) -> Vec<String> {
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

pub(crate) fn metadata(sandbox: &Sandbox, id: &str) -> Value {
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

pub(crate) fn status(sandbox: &Sandbox, id: &str) -> String {
    metadata(sandbox, id)["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The one plan directory in `after` that is not in `before`.
pub(crate) fn new_plan(before: &[String], after: &[String]) -> String {
    let new: Vec<&String> = after.iter().filter(|id| !before.contains(id)).collect();
    assert_eq!(
        new.len(),
        1,
        "one new plan directory: before {before:?}, after {after:?}"
    );
    new[0].clone()
}

/// Makes a whole plan with the fast agents and returns its id.
pub(crate) fn whole_plan(sandbox: &Sandbox, question: &str) -> String {
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
        stdout.contains(&format!("plan {id} is ready: 20 tasks")),
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
pub(crate) fn listed(sandbox: &Sandbox) -> Vec<(String, PlanStatus)> {
    PlanStore::new(&sandbox.massgen_dir())
        .list(10)
        .into_iter()
        .map(|plan| (plan.id, plan.status))
        .collect()
}

/// Every `*.json` under `.massgen/` parses, and every line of every `*.jsonl` does — except
/// in the staging directory of a workspace copy (`.<name>.incoming`), which a kill may leave
/// half-filled: it is renamed over its target only once whole, and cleared by the next copy.
pub(crate) fn every_json_file_is_whole(sandbox: &Sandbox) -> usize {
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(sandbox.massgen_dir()) {
        let entry = entry.unwrap();
        let path = entry.path();
        let staged = path.components().any(|part| {
            let name = part.as_os_str().to_string_lossy();
            name.starts_with('.') && name.ends_with(".incoming")
        });
        if staged {
            continue;
        }
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
pub(crate) fn plan_then_kill(
    sandbox: &Sandbox,
    question: &str,
    ready: impl Fn(&str, &str) -> bool,
) -> String {
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
pub(crate) fn execute_latest_runs(sandbox: &Sandbox, expected: &str, others: &[&str]) -> String {
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
pub(crate) fn untouched(sandbox: &Sandbox, id: &str, want: &str) {
    let meta = metadata(sandbox, id);
    assert_eq!(
        (meta["status"].as_str(), &meta["execution_session_id"]),
        (Some(want), &Value::Null),
        "{id} should be left `{want}` and unexecuted: {meta:#}"
    );
}
