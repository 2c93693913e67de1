//! Hostile: sandbox, detached processes. A command's `setsid`, `nohup` and double-forked
//! children die when the call returns, times out or the turn is cancelled, whatever PID
//! namespace they run in.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use massgen::config::CommandLineConfig;
use massgen::protocol::EventMsg;

use super::Agent;
use crate::support::Scenario;

/// Waits for `ws/<name>` to be written.
async fn wait_for(ws: &Path, name: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !fs::read_to_string(ws.join(name)).is_ok_and(|text| !text.trim().is_empty()) {
        assert!(Instant::now() < deadline, "{name} was never written");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A `sleep` duration of about `seconds` that no other process on this machine uses, so
/// that the sleeper is found in `/proc` whatever PID namespace it runs in (the pid it can
/// write is the one inside its namespace).
fn unique_sleep(seconds: u32) -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let count = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("{seconds}.{}{count}{nanos:09}", std::process::id())
}

/// Live (not zombie) processes running `sleep <duration>`, by pid.
fn sleepers(duration: &str) -> Vec<i32> {
    let wanted = format!("sleep\0{duration}\0");
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let live = fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit(')')
                    .next()
                    .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
            });
            cmdline == wanted.as_bytes() && live
        })
        .collect()
}

/// Asserts that no process sleeps for `duration` within a few seconds.
async fn assert_gone(duration: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = sleepers(duration);
        if left.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            for pid in &left {
                let _ = std::process::Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status();
            }
            panic!("{what} (pids {left:?}) outlived its command");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Starts a detached `sleep` for `duration` and returns once it has.
fn setsid(duration: &str) -> String {
    format!(
        r#"sh -c 'setsid sh -c "echo \$\$ > setsid.pid; exec sleep {duration}" & while [ ! -s setsid.pid ]; do sleep 0.05; done'"#
    )
}
fn nohup(duration: &str) -> String {
    format!(
        r#"sh -c 'nohup sh -c "echo \$\$ > nohup.pid; exec sleep {duration}" > /dev/null 2>&1 & while [ ! -s nohup.pid ]; do sleep 0.05; done'"#
    )
}
/// Forks twice, leaves the session and drops its environment (and so the marker).
fn double_fork(duration: &str) -> String {
    format!(
        "/usr/bin/python3 -c \"import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open('fork.tmp', 'w').write(str(os.getpid()))
        os.rename('fork.tmp', 'fork.pid')
        os.execvpe('sleep', ['sleep', '{duration}'], {{}})
    os._exit(0)
os.wait()
while not os.path.exists('fork.pid'):
    time.sleep(0.05)\""
    )
}

#[tokio::test]
async fn detached_processes_die_when_the_call_returns() {
    let agent = Agent::default();
    for (command, pid_file) in [
        (setsid as fn(&str) -> String, "setsid.pid"),
        (nohup, "nohup.pid"),
        (double_fork, "fork.pid"),
    ] {
        let duration = unique_sleep(301);
        let command = command(&duration);
        let result = agent.run(&command).await;
        assert!(result.outcome.ok, "{command}: {}", result.outcome.output);
        wait_for(&agent.ws, pid_file).await;
        assert_gone(&duration, &command).await;
    }
}

#[tokio::test]
async fn detached_processes_die_when_the_call_times_out() {
    let agent = Agent::new(CommandLineConfig {
        timeout: Duration::from_secs(1),
        ..CommandLineConfig::default()
    });
    let duration = unique_sleep(304);
    let command =
        format!(r#"sh -c 'setsid sh -c "echo \$\$ > late.pid; exec sleep {duration}" & sleep 30'"#);
    let result = agent.run(&command).await;
    assert!(
        result.outcome.output.starts_with("Timed out"),
        "{}",
        result.outcome.output
    );
    wait_for(&agent.ws, "late.pid").await;
    assert_gone(&duration, "the setsid sleep").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn detached_processes_die_when_the_turn_is_cancelled() {
    massgen::sandbox::set_helper_program(PathBuf::from(env!("CARGO_BIN_EXE_massgen")));
    let duration = unique_sleep(305);
    let yaml = format!(
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
        - name: mcp__command_line__execute_command
          arguments:
            command: |-
              sh -c 'setsid sh -c "echo \$\$ > turn.pid; exec sleep {duration}" & sleep 60'
"#
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let submit = massgen::protocol::Op::Submit {
        options: Default::default(),
        text: "Run it".into(),
        mode: massgen::protocol::Mode::Normal,
        context_paths: vec![],
    };
    scenario.handle.ops.send(submit).await.unwrap();
    let mut workspace = None;
    let mut ran = false;
    while let Some(event) = scenario.handle.events.recv().await {
        match &event.msg {
            EventMsg::WorkspaceAssigned { workspace: ws, .. } => workspace = Some(ws.clone()),
            EventMsg::ToolCallBegin { tool, .. } if tool.ends_with("execute_command") => {
                let ws = workspace.clone().expect("a workspace before the call");
                wait_for(&ws, "turn.pid").await;
                ran = true;
                scenario
                    .handle
                    .ops
                    .send(massgen::protocol::Op::Cancel)
                    .await
                    .unwrap();
            }
            EventMsg::TurnFinished { .. } => break,
            _ => {}
        }
    }
    assert!(ran, "the command ran");
    assert_gone(&duration, "the setsid sleep of a cancelled turn").await;
    scenario.handle.shutdown().await;
}
