//! Hostile: an agent's command hunts for API keys in other processes' `/proc/PID/environ`:
//! massgen's (the test process, when the tools run in-process), its parent's, an MCP-like
//! sibling's started with a key, and every pid `/proc` lists. It finds none of them, and
//! sees no process but its own (issue 27, item 1).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use massgen::config::{CommandLineConfig, ToolSettings};
use massgen::tools::{BuiltinTools, PathPolicy};
use serde_json::json;

use super::sandbox::tool_outputs;
use super::support::sandbox::{Sandbox, text};

/// What every planted key contains; the hunting script reports environments holding it.
const MARK: &str = "proc-secret";
const OPENAI: &str = "sk-proc-secret-openai-0123456789abcdef";
const ANTHROPIC: &str = "sk-ant-proc-secret-0123456789abcdef";

/// Lists `/proc`, then for every pid seen and every pid given reads its environment:
/// `READ pid` when it could, `LEAK pid` when that held [`MARK`].
const HUNT: &str = r#"
import os, sys
me = os.getpid()
seen = sorted(int(n) for n in os.listdir('/proc') if n.isdigit())
print('seen', len(seen), seen[:20])
for pid in sorted(set(seen) | set(int(a) for a in sys.argv[1:])):
    if pid == me:
        continue
    try:
        data = open('/proc/%d/environ' % pid, 'rb').read()
    except Exception as error:
        print('denied', pid, type(error).__name__)
        continue
    print('READ', pid)
    if MARK.encode() in data:
        print('LEAK', pid)
"#;

fn hunt_script() -> String {
    HUNT.replace("MARK.encode()", &format!("b'{MARK}'"))
}

/// Whether this kernel gives new PID and mount namespaces with a fresh `/proc` to this
/// user, asked of util-linux's `unshare`, not of massgen.
fn namespaces_offered() -> bool {
    let root = rustix::process::geteuid().is_root();
    let mut unshare = std::process::Command::new("unshare");
    unshare.args(["--pid", "--mount", "--fork", "--mount-proc"]);
    if !root {
        unshare.arg("--map-root-user");
    }
    let offered = unshare
        .arg("true")
        .output()
        .is_ok_and(|output| output.status.success());
    if !offered {
        eprintln!("no PID namespaces for this user here (or no `unshare`): skipped");
    }
    offered
}

/// A process massgen might have started beside the command (an MCP server), holding a key.
struct Sibling(std::process::Child);

impl Sibling {
    fn start() -> Self {
        let child = std::process::Command::new("sleep")
            .arg("60")
            .env("OPENAI_API_KEY", OPENAI)
            .spawn()
            .unwrap();
        Self(child)
    }
}

impl Drop for Sibling {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn commands_read_no_other_process_environment() {
    if !namespaces_offered() {
        return;
    }
    massgen::sandbox::set_helper_program(PathBuf::from(env!("CARGO_BIN_EXE_massgen")));
    let sibling = Sibling::start();
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().canonicalize().unwrap();
    fs::write(ws.join("hunt.py"), hunt_script()).unwrap();
    let settings = ToolSettings {
        cwd: Some(ws.display().to_string()),
        command_line: Some(CommandLineConfig::default()),
        ..ToolSettings::default()
    };
    let tools = BuiltinTools::new(
        Arc::new(PathPolicy::new(ws.clone(), Vec::new(), Vec::new())),
        &settings,
    );
    let me = std::process::id();
    let parent = rustix::process::getppid().unwrap().as_raw_nonzero().get();
    let command = format!("python3 hunt.py {me} {parent} {}", sibling.0.id());
    let result = tools
        .call(
            "mcp__command_line__execute_command",
            &json!({ "command": command }).to_string(),
        )
        .await;
    let output = &result.outcome.output;
    assert!(result.outcome.ok, "{output}");
    assert!(output.contains("seen "), "{output}");
    assert!(!output.contains("LEAK"), "a key leaked: {output}");
    assert!(!output.contains(OPENAI), "{output}");
    for pid in [me, u32::try_from(parent).unwrap(), sibling.0.id()] {
        assert!(
            !output.contains(&format!("READ {pid}\n")),
            "pid {pid}'s environment was read: {output}"
        );
    }
    let seen: usize = output
        .lines()
        .find_map(|line| line.strip_prefix("seen "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap();
    assert!(seen <= 1, "the command saw other processes: {output}");
}

#[test]
fn keys_in_massgens_environment_stay_out_of_commands_output() {
    if !namespaces_offered() {
        return;
    }
    let sandbox = Sandbox::new();
    let hex: String = hunt_script()
        .bytes()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    sandbox.write(
        "config.yaml",
        &format!(
            r#"
agents:
  - id: hunter
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      answers: ["done"]
      tool_calls:
        - name: mcp__command_line__execute_command
          arguments:
            command: python3 -c "exec(bytes.fromhex('{hex}').decode())"
"#
        ),
    );
    let output = sandbox
        .massgen()
        .args(["--config", "config.yaml", "--display", "plain", "Go"])
        .env("OPENAI_API_KEY", OPENAI)
        .env("ANTHROPIC_API_KEY", ANTHROPIC)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let events = sandbox.run_log_dir().join("turn_1/attempt_1/events.jsonl");
    let log = fs::read_to_string(&events).unwrap();
    let outputs = tool_outputs(&events);
    assert_eq!(outputs.len(), 1, "{outputs:?}");
    assert!(outputs[0].contains("seen "), "{}", outputs[0]);
    assert!(!outputs[0].contains("LEAK"), "a key leaked: {}", outputs[0]);
    assert!(!outputs[0].contains("READ"), "{}", outputs[0]);
    for key in [OPENAI, ANTHROPIC] {
        assert!(!log.contains(key), "{key} is in events.jsonl");
        assert!(!text(&output.stdout).contains(key));
    }
}

#[test]
fn sandbox_check_names_the_process_isolation_in_force() {
    let sandbox = Sandbox::new();
    let output = sandbox.massgen().arg("--sandbox-check").output().unwrap();
    let report = text(&output.stdout);
    let line = report
        .lines()
        .find(|line| line.trim_start().starts_with("processes "))
        .unwrap_or_else(|| panic!("no processes line: {report}"));
    if namespaces_offered() {
        assert!(
            line.contains("own PID namespace: other processes invisible"),
            "{report}"
        );
        assert!(line.contains("massgen's environment hidden"), "{report}");
    } else {
        // massgen's own environment is closed to the commands of a massgen not run as root.
        assert!(
            line.contains("its parents' are not") || line.contains("NOT protected"),
            "{report}"
        );
    }
}
