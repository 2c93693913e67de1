//! Hostile: sandbox. Agents' commands that hide a path from the command filters (Python,
//! `printf` escapes, a script they wrote) still cannot write or read outside their roots;
//! TCP is denied when configured; processes that detach (`setsid`, `nohup`, a double fork
//! that drops its environment) die when the call returns, times out or the turn is
//! cancelled; `MASSGEN_SANDBOX=off` warns once; `--sandbox-check` reports.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use massgen::config::{CommandLineConfig, ToolSettings};
use massgen::protocol::EventMsg;
use massgen::sandbox::{Mode, check};
use massgen::tools::{BuiltinOutcome, BuiltinTools, PathPolicy};
use serde_json::json;

use super::support::sandbox::{Sandbox, text};

mod detached;
mod modes;

const PYTHON: &str = "/usr/bin/python3";

/// Whether this machine enforces the sandbox; tests of what it forbids need it.
fn enforced() -> bool {
    static ENFORCED: OnceLock<bool> = OnceLock::new();
    let enforced = *ENFORCED.get_or_init(|| check::run(Mode::Auto).enforced);
    if !enforced {
        eprintln!("no Landlock on this machine: skipped (see massgen --sandbox-check)");
    }
    enforced
}

/// A workspace, a directory beside it that is nobody's root, and the agent's tools.
struct Agent {
    _dir: tempfile::TempDir,
    ws: PathBuf,
    outside: PathBuf,
    tools: BuiltinTools,
}

impl Agent {
    fn new(config: CommandLineConfig) -> Self {
        // Commands start as the binary starts them: in namespaces, through the helper.
        massgen::sandbox::set_helper_program(PathBuf::from(env!("CARGO_BIN_EXE_massgen")));
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (ws, outside) = (root.join("ws"), root.join("home"));
        fs::create_dir_all(&ws).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("secret.txt"), "the user's secret").unwrap();
        let settings = ToolSettings {
            cwd: Some(ws.display().to_string()),
            command_line: Some(config),
            ..ToolSettings::default()
        };
        let policy = Arc::new(PathPolicy::new(ws.clone(), Vec::new(), Vec::new()));
        Self {
            _dir: dir,
            ws,
            outside,
            tools: BuiltinTools::new(policy, &settings),
        }
    }

    fn default() -> Self {
        Self::new(CommandLineConfig::default())
    }

    async fn run(&self, command: &str) -> BuiltinOutcome {
        self.run_with(json!({ "command": command })).await
    }

    async fn run_with(&self, args: serde_json::Value) -> BuiltinOutcome {
        self.tools
            .call("mcp__command_line__execute_command", &args.to_string())
            .await
    }
}

/// `path` in hex, for Python's `bytes.fromhex`: no `/` for the filters to see.
fn hex(path: &Path) -> String {
    path.display()
        .to_string()
        .bytes()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// `path` with every `/` as printf's `\057`.
fn octal(path: &Path) -> String {
    path.display().to_string().replace('/', "\\057")
}

#[tokio::test]
async fn hidden_paths_cannot_be_written_outside_the_workspace() {
    if !enforced() {
        return;
    }
    let agent = Agent::default();
    let python = agent.outside.join("from_python");
    let result = agent
        .run(&format!(
            "{PYTHON} -c \"open(bytes.fromhex('{}').decode(),'w').write('x')\"",
            hex(&python)
        ))
        .await;
    assert!(!result.outcome.ok, "{}", result.outcome.output);
    let shell = agent.outside.join("from_sh");
    let result = agent
        .run(&format!(
            "sh -c 'echo x > \"$(printf \"{}\")\"'",
            octal(&shell)
        ))
        .await;
    assert!(!result.outcome.ok, "{}", result.outcome.output);
    let script = agent.outside.join("from_script");
    let wrote = agent
        .tools
        .call(
            "mcp__filesystem__write_file",
            &json!({"path": "job.sh", "content": format!("echo x > {}\n", script.display())})
                .to_string(),
        )
        .await;
    assert!(wrote.outcome.ok, "{}", wrote.outcome.output);
    let result = agent.run("sh job.sh").await;
    assert!(!result.outcome.ok, "{}", result.outcome.output);
    for path in [python, shell, script] {
        assert!(!path.exists(), "{} was written", path.display());
    }
}

#[tokio::test]
async fn files_outside_the_readable_roots_cannot_be_read() {
    if !enforced() {
        return;
    }
    let agent = Agent::default();
    let secret = agent.outside.join("secret.txt");
    for command in [
        format!(
            "{PYTHON} -c \"print(open(bytes.fromhex('{}').decode()).read())\"",
            hex(&secret)
        ),
        format!("sh -c 'cat \"$(printf \"{}\")\"'", octal(&secret)),
    ] {
        let result = agent.run(&command).await;
        assert!(!result.outcome.ok, "{command}: {}", result.outcome.output);
        assert!(!result.outcome.output.contains("the user's secret"));
    }
}

#[tokio::test]
async fn the_workspace_and_the_commands_own_temp_dir_are_writable() {
    let agent = Agent::default();
    let result = agent
        .run(
            "sh -c 'test -n \"$TMPDIR\" && echo made > in_ws.txt && echo temp > \"$TMPDIR/t\" \
             && cat \"$TMPDIR/t\" && echo \"$TMPDIR\"'",
        )
        .await;
    assert!(result.outcome.ok, "{}", result.outcome.output);
    assert!(result.outcome.output.contains("--- stdout ---\ntemp\n"));
    assert_eq!(
        fs::read_to_string(agent.ws.join("in_ws.txt")).unwrap(),
        "made\n"
    );
    let tmp = result.outcome.output.lines().nth(3).unwrap();
    assert!(tmp.contains("massgen-cmd-"), "{tmp}");
    assert!(
        !Path::new(tmp).exists(),
        "the temp dir {tmp} outlived its command"
    );
}

#[tokio::test]
async fn tcp_is_denied_only_when_the_network_is_off() {
    if !enforced() {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!(
        "{PYTHON} -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 5)\""
    );
    let allowed = Agent::default();
    let result = allowed.run(&connect).await;
    assert!(result.outcome.ok, "{}", result.outcome.output);
    let denied = Agent::new(CommandLineConfig {
        network: false,
        ..CommandLineConfig::default()
    });
    let result = denied.run(&connect).await;
    assert!(!result.outcome.ok, "{}", result.outcome.output);
    assert!(
        result.outcome.output.contains("PermissionError"),
        "{}",
        result.outcome.output
    );
}

/// A scripted run of two commands with `env` set, and each command's output.
fn two_commands(env: &[(&str, &str)]) -> (Vec<String>, String) {
    let sandbox = Sandbox::new();
    sandbox.write(
        "config.yaml",
        r#"
agents:
  - id: runner
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      answers: ["done"]
      tool_calls:
        - {name: mcp__command_line__execute_command, arguments: {command: "echo one"}}
        - {name: mcp__command_line__execute_command, arguments: {command: "echo two"}}
"#,
    );
    let mut command = sandbox.massgen();
    command.args(["--config", "config.yaml", "--display", "plain", "Go"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let outputs = tool_outputs(&sandbox.run_log_dir().join("turn_1/attempt_1/events.jsonl"));
    (outputs, text(&output.stderr))
}

/// The output of every tool call an event log records, in order.
pub fn tool_outputs(events: &Path) -> Vec<String> {
    fs::read_to_string(events)
        .unwrap()
        .lines()
        .filter_map(|line| {
            match serde_json::from_str::<massgen::protocol::Event>(line)
                .ok()?
                .msg
            {
                EventMsg::ToolCallEnd { output, .. } => Some(output),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn turning_the_sandbox_off_warns_once() {
    let (outputs, _) = two_commands(&[("MASSGEN_SANDBOX", "off")]);
    assert_eq!(outputs.len(), 2, "{outputs:?}");
    assert!(
        outputs[0].contains("WARNING: commands run WITHOUT an OS sandbox (MASSGEN_SANDBOX=off"),
        "{}",
        outputs[0]
    );
    assert!(!outputs[1].contains("WARNING"), "{}", outputs[1]);
    assert!(outputs[1].contains("two"));
    if enforced() {
        let (outputs, _) = two_commands(&[]);
        assert!(
            outputs.iter().all(|output| !output.contains("WARNING")),
            "{outputs:?}"
        );
    }
}

#[test]
fn sandbox_check_reports_what_is_enforced() {
    let sandbox = Sandbox::new();
    let output = sandbox.massgen().arg("--sandbox-check").output().unwrap();
    let report = text(&output.stdout);
    assert!(report.starts_with("massgen sandbox check"), "{report}");
    for line in [
        "mode",
        "files",
        "network deny",
        "no_new_privs",
        "process cleanup",
        "verdict",
    ] {
        assert!(report.contains(&format!("\n  {line} ")), "{line}: {report}");
    }
    if enforced() {
        assert_eq!(output.status.code(), Some(0), "{report}");
        assert!(report.contains("landlock        ABI "));
        assert!(report.contains("write outside denied, read outside denied"));
    }
    let off = sandbox
        .massgen()
        .arg("--sandbox-check")
        .env("MASSGEN_SANDBOX", "off")
        .output()
        .unwrap();
    assert_eq!(off.status.code(), Some(1));
    assert!(text(&off.stdout).contains("NOT enforced: MASSGEN_SANDBOX=off is set"));
}
