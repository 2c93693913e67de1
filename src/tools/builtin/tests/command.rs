//! execute_command: no shell, cleared environment, lists, timeouts, capped output.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{call, failed, ok, refused, settings, tools};
use crate::config::CommandLineConfig;
use crate::tools::builtin::{BuiltinOutcome, BuiltinTools};
use crate::tools::permissions::fixture::Fixture;

async fn run(tools: &BuiltinTools, command: &str) -> BuiltinOutcome {
    call(tools, "execute_command", json!({"command": command})).await
}

fn with_config(f: &Fixture, config: CommandLineConfig) -> BuiltinTools {
    let mut settings = settings(f);
    settings.command_line = Some(config);
    BuiltinTools::new(f.policy.clone(), &settings)
}

#[tokio::test]
async fn runs_one_program_in_the_workspace_and_reports_the_exit_code() {
    let f = Fixture::new();
    let tools = tools(&f);
    let echo = run(&tools, "echo 'a;b' \"c|d\" e").await;
    let text = ok(&echo);
    assert!(text.starts_with("exit code: 0"), "{text}");
    assert!(text.contains("--- stdout ---\na;b c|d e\n"));
    assert!(text.contains("--- stderr ---\n(empty)"));
    let pwd = run(&tools, "pwd").await;
    assert!(ok(&pwd).contains(&format!("{}\n", f.ws.display())));
    let sub = call(
        &tools,
        "execute_command",
        json!({"command": "pwd", "work_dir": "sub"}),
    )
    .await;
    assert!(ok(&sub).contains(&format!("{}\n", f.ws.join("sub").display())));
    let exit = run(&tools, "sh -c 'echo oops >&2; exit 3'").await;
    let text = failed(&exit);
    assert!(text.starts_with("exit code: 3") && text.contains("--- stderr ---\noops"));
}

#[tokio::test]
async fn the_environment_holds_no_secrets() {
    let f = Fixture::new();
    let tools = tools(&f);
    let env = run(&tools, "env").await;
    let text = ok(&env);
    let stdout = text
        .split("--- stdout ---\n")
        .nth(1)
        .unwrap()
        .split("\n--- stderr ---")
        .next()
        .unwrap();
    let names: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split('=').next())
        .collect();
    assert!(!names.is_empty());
    for name in &names {
        assert!(
            // TMPDIR: the command's own temp dir; MASSGEN_COMMAND: the marker by which
            // everything it starts is found and ended.
            ["PATH", "HOME", "LANG", "TERM", "TMPDIR", "MASSGEN_COMMAND"].contains(name),
            "{name} leaked into the command"
        );
    }
    assert!(stdout.contains(&format!("HOME={}\n", f.ws.display())));
}

#[tokio::test]
async fn a_workspace_venv_comes_first_on_path() {
    let f = Fixture::new();
    let tools = tools(&f);
    let bin = f.ws.join(".venv/bin");
    fs::create_dir_all(&bin).unwrap();
    fs::write(bin.join("venv-hello"), "#!/bin/sh\necho from the venv\n").unwrap();
    fs::set_permissions(bin.join("venv-hello"), fs::Permissions::from_mode(0o755)).unwrap();
    let ran = run(&tools, "venv-hello").await;
    assert!(ok(&ran).contains("from the venv"));
}

#[tokio::test]
async fn shell_syntax_is_refused_with_advice() {
    let f = Fixture::new();
    let tools = tools(&f);
    for command in [
        "ls | wc",
        "a && b",
        "echo $HOME",
        "echo `id`",
        "ls > x",
        "cat < x",
        "(ls)",
        "ls\nrm x",
        "echo \"$HOME\"",
    ] {
        let result = run(&tools, command).await;
        assert!(
            failed(&result).contains("one command at a time"),
            "{command}"
        );
    }
    let unclosed = run(&tools, "echo 'open").await;
    assert!(failed(&unclosed).contains("never closed"));
    let empty = run(&tools, "  ").await;
    assert!(failed(&empty).contains("empty"));
    let missing = call(&tools, "execute_command", json!({})).await;
    assert!(failed(&missing).contains("`command`"));
}

#[tokio::test]
async fn deny_allow_and_block_lists() {
    let f = Fixture::new();
    let tools = with_config(
        &f,
        CommandLineConfig {
            allowed_commands: vec!["echo .*".into(), "rm .*".into()],
            blocked_commands: vec!["rm .*".into()],
            ..CommandLineConfig::default()
        },
    );
    ok(&run(&tools, "echo hi").await);
    let not_allowed = run(&tools, "ls").await;
    assert!(failed(&not_allowed).contains("only commands matching"));
    let blocked = run(&tools, "rm notread.txt").await;
    assert!(failed(&blocked).contains("blocked pattern `rm .*`"));
    let sudo = run(&tools, "echo x && sudo y").await;
    failed(&sudo);
    for command in [
        "sudo ls",
        "shutdown now",
        "mkfs.ext4 x",
        "rm -rf /",
        "dd if=a of=b",
        "pkill massgen",
    ] {
        let denied = run(&tools, command).await;
        assert!(failed(&denied).starts_with("Refused"), "{command}");
    }
    assert!(f.ws.join("notread.txt").exists());
}

#[tokio::test]
async fn path_arguments_are_checked() {
    let f = Fixture::new();
    let tools = tools(&f);
    ok(&run(&tools, "cat mine.txt sub/a.txt").await);
    ok(&run(&tools, &format!("cat {}", f.at("ctx_r/readme.md"))).await);
    ok(&run(&tools, "ls /dev/null").await);
    let outside = run(&tools, "cat ../outside/secret.txt").await;
    assert!(refused(&outside).contains("outside your workspace"));
    let writer = run(&tools, &format!("cp {} x", f.at("ctx_r/readme.md"))).await;
    assert!(refused(&writer).contains("read-only"));
    let work_dir = call(
        &tools,
        "execute_command",
        json!({"command": "ls", "work_dir": f.at("ctx_r")}),
    )
    .await;
    assert!(refused(&work_dir).contains("must be inside your workspace"));
    let not_found = run(&tools, "no-such-program-xyz").await;
    assert!(failed(&not_found).contains("was not found"));
}

#[tokio::test]
async fn a_timeout_kills_the_whole_process_group() {
    let f = Fixture::new();
    let tools = with_config(
        &f,
        CommandLineConfig {
            timeout: Duration::from_secs(1),
            ..CommandLineConfig::default()
        },
    );
    let started = Instant::now();
    let command = "sh -c 'sleep 30 & echo $! > bg.pid; wait'";
    let result = call(
        &tools,
        "execute_command",
        json!({"command": command, "timeout": 100}),
    )
    .await;
    assert!(failed(&result).starts_with("Timed out after 1 s"));
    assert!(started.elapsed() < Duration::from_secs(10));
    let pid = fs::read_to_string(f.ws.join("bg.pid")).unwrap();
    let stat = format!("/proc/{}/stat", pid.trim());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let gone = fs::read_to_string(&stat).map_or(true, |stat| stat.contains(") Z "));
        if gone {
            break;
        }
        assert!(Instant::now() < deadline, "the background sleep survived");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn long_output_keeps_its_head_and_tail() {
    let f = Fixture::new();
    let tools = tools(&f);
    let result = run(&tools, "seq 1 40000").await;
    let text = ok(&result);
    assert!(text.contains("--- stdout ---\n1\n2\n3\n"));
    assert!(text.contains("40000\n"));
    assert!(text.contains("bytes cut …"));
    assert!(text.len() < 40 * 1024);
}
