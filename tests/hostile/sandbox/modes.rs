//! Hostile: execution modes. Under `srt` a command reaches no network even with
//! `command_line_network` on, and reads only what srt's read mode allows; under `docker`
//! without a daemon the load warns and commands still run, sandboxed and without network;
//! with a daemon they run in the agent's container, which is removed when its tools go.

use std::fs;
use std::process::Command;
use std::time::{Duration, Instant};

use massgen::config::{CommandLineConfig, DockerSettings, ExecutionMode, SrtReadMode, SrtSettings};

use super::{Agent, PYTHON, enforced, tool_outputs};
use crate::support::sandbox::{Sandbox, text};

fn connect_to(port: u16) -> String {
    format!("{PYTHON} -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 5)\"")
}

#[tokio::test]
async fn srt_denies_the_network_that_local_mode_allows() {
    if !enforced() {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let connect = connect_to(listener.local_addr().unwrap().port());
    let local = Agent::default();
    let result = local.run(&connect).await;
    assert!(result.outcome.ok, "{}", result.outcome.output);
    let srt = Agent::new(CommandLineConfig {
        network: true,
        mode: ExecutionMode::Srt(SrtSettings::default()),
        ..CommandLineConfig::default()
    });
    let result = srt.run(&connect).await;
    assert!(!result.outcome.ok, "{}", result.outcome.output);
    assert!(
        result.outcome.output.contains("PermissionError"),
        "{}",
        result.outcome.output
    );
}

#[tokio::test]
async fn srt_reads_follow_the_read_mode_allow_and_deny_lists() {
    if !enforced() {
        return;
    }
    let confined = Agent::new(CommandLineConfig {
        mode: ExecutionMode::Srt(SrtSettings::default()),
        ..CommandLineConfig::default()
    });
    // A path outside the roots named on the command line is refused by the filters before
    // the sandbox; a script the agent wrote reaches it without naming it.
    fs::write(
        confined.ws.join("peek.py"),
        format!(
            "print(open('{}').read())",
            confined.outside.join("public.txt").display()
        ),
    )
    .unwrap();
    let peek = format!("{PYTHON} peek.py");
    fs::write(confined.outside.join("public.txt"), "public").unwrap();
    let denied = confined.run(&peek).await;
    assert!(!denied.outcome.ok, "{}", denied.outcome.output);

    let open = Agent::new(CommandLineConfig {
        mode: ExecutionMode::Srt(SrtSettings {
            read_mode: SrtReadMode::Open,
            ..SrtSettings::default()
        }),
        ..CommandLineConfig::default()
    });
    fs::write(open.outside.join("public.txt"), "public").unwrap();
    fs::write(
        open.ws.join("peek.py"),
        format!(
            "print(open('{}').read())",
            open.outside.join("public.txt").display()
        ),
    )
    .unwrap();
    let allowed = open.run(&peek).await;
    assert!(allowed.outcome.ok, "{}", allowed.outcome.output);
    assert!(allowed.outcome.output.contains("public"));

    let carved = Agent::new(CommandLineConfig {
        mode: ExecutionMode::Srt(SrtSettings {
            read_mode: SrtReadMode::Open,
            deny_read: vec![open.outside.join("public.txt")],
            ..SrtSettings::default()
        }),
        ..CommandLineConfig::default()
    });
    fs::write(
        carved.ws.join("peek.py"),
        format!(
            "print(open('{}').read())",
            open.outside.join("public.txt").display()
        ),
    )
    .unwrap();
    let refused = carved.run(&peek).await;
    assert!(!refused.outcome.ok, "{}", refused.outcome.output);
    assert!(
        refused.outcome.output.contains("PermissionError"),
        "{}",
        refused.outcome.output
    );
}

#[test]
fn docker_without_a_daemon_warns_and_runs_commands_sandboxed_without_network() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let sandbox = Sandbox::new();
    sandbox.write(
        "config.yaml",
        &format!(
            r#"
agents:
  - id: runner
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      command_line_execution_mode: docker
      command_line_docker_memory_limit: 1g
      answers: ["done"]
      tool_calls:
        - {{name: mcp__command_line__execute_command, arguments: {{command: "echo one"}}}}
        - {{name: mcp__command_line__execute_command, arguments: {{command: "{PYTHON} -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 5)\""}}}}
"#
        ),
    );
    let output = sandbox
        .massgen()
        .args(["--config", "config.yaml", "--display", "plain", "Go"])
        // No daemon answers at this socket, whatever this machine runs.
        .env(
            "DOCKER_HOST",
            "unix:///nonexistent/massgen-test-docker.sock",
        )
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("no Docker daemon answers"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("agent `runner`") && warnings[0].contains("memory and CPU limits")
    );
    let outputs = tool_outputs(&sandbox.run_log_dir().join("turn_1/attempt_1/events.jsonl"));
    assert_eq!(outputs.len(), 2, "{outputs:?}");
    assert!(outputs[0].contains("--- stdout ---\none"), "{}", outputs[0]);
    if enforced() {
        assert!(outputs[1].contains("PermissionError"), "{}", outputs[1]);
    }
}

/// The image the Docker test runs: `MASSGEN_TEST_DOCKER_IMAGE`, or one imported here from
/// a static busybox; `None` (with the reason printed) where neither can be had.
fn test_image() -> Option<String> {
    if let Ok(image) = std::env::var("MASSGEN_TEST_DOCKER_IMAGE") {
        return Some(image);
    }
    const IMAGE: &str = "massgen-test-busybox:latest";
    let present = Command::new("docker")
        .args(["image", "inspect", IMAGE])
        .output()
        .is_ok_and(|output| output.status.success());
    if present {
        return Some(IMAGE.into());
    }
    let busybox = ["/usr/bin/busybox", "/bin/busybox"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())?;
    let root = tempfile::tempdir().ok()?;
    fs::create_dir_all(root.path().join("bin")).ok()?;
    fs::create_dir_all(root.path().join("tmp")).ok()?;
    fs::copy(busybox, root.path().join("bin/busybox")).ok()?;
    let applets = Command::new(busybox).arg("--list").output().ok()?;
    for applet in text(&applets.stdout).lines() {
        let _ = std::os::unix::fs::symlink("busybox", root.path().join("bin").join(applet));
    }
    let imported = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "tar -C {} -c . | docker import - {IMAGE}",
            root.path().display()
        ))
        .output()
        .ok()?;
    imported.status.success().then(|| IMAGE.to_string())
}

#[tokio::test]
async fn docker_runs_commands_in_the_agents_container_and_removes_it() {
    // `.ci/run` starts a daemon where the machine allows and then requires this test to
    // run (`MASSGEN_TEST_DOCKER=required`); elsewhere it skips, saying why.
    let required = std::env::var("MASSGEN_TEST_DOCKER").is_ok_and(|value| value == "required");
    if !massgen::sandbox::docker::daemon_answers() {
        assert!(
            !required,
            "MASSGEN_TEST_DOCKER=required but no Docker daemon answers"
        );
        eprintln!("no Docker daemon answers here: the Docker test is skipped");
        return;
    }
    let Some(image) = test_image() else {
        assert!(
            !required,
            "MASSGEN_TEST_DOCKER=required but no image could be made"
        );
        eprintln!("no image for the Docker test (set MASSGEN_TEST_DOCKER_IMAGE): skipped");
        return;
    };
    let mut docker = DockerSettings {
        image,
        ..docker_defaults()
    };
    docker.cpu_limit = Some(1.0);
    let agent = Agent::new(CommandLineConfig {
        timeout: Duration::from_secs(3),
        mode: ExecutionMode::Docker(Box::new(docker)),
        ..CommandLineConfig::default()
    });
    let made = agent
        .run("sh -c 'echo in-container > made.txt && ps'")
        .await;
    assert!(made.outcome.ok, "{}", made.outcome.output);
    assert!(
        made.outcome.output.contains("tail -f /dev/null"),
        "the container's own processes: {}",
        made.outcome.output
    );
    assert_eq!(
        fs::read_to_string(agent.ws.join("made.txt")).unwrap(),
        "in-container\n"
    );
    let slow = agent.run("sleep 30").await;
    assert!(
        slow.outcome.output.contains("Timed out after"),
        "{}",
        slow.outcome.output
    );
    let left = agent.run("ps").await;
    assert!(
        !left.outcome.output.contains("sleep 30"),
        "{}",
        left.outcome.output
    );
    let listed = |filter: &str| {
        let output = Command::new("docker")
            .args(["ps", "-aq", "--filter", filter])
            .output()
            .unwrap();
        text(&output.stdout).trim().to_string()
    };
    let name = format!(
        "name=massgen-{}-",
        agent.ws.file_name().unwrap().to_string_lossy()
    );
    assert!(
        !listed(&name).is_empty(),
        "the container runs while the agent's tools do"
    );
    drop(agent);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !listed(&name).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the container outlived its agent's tools"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn docker_defaults() -> DockerSettings {
    let config = massgen::config::from_text(
        "agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: w\n    \
         enable_mcp_command_line: true\n    command_line_execution_mode: docker\n",
        "t.yaml",
        &massgen::config::Env::default(),
    )
    .unwrap()
    .config;
    match &config.agents[0]
        .backend
        .tools
        .command_line
        .as_ref()
        .unwrap()
        .mode
    {
        ExecutionMode::Docker(docker) => (**docker).clone(),
        other => panic!("{other:?}"),
    }
}
