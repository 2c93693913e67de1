//! What a command can see of other processes, tried for real for `--sandbox-check`: the
//! helper binary runs as a command (`massgen __sandbox-probe PID…`) and reports, for each
//! pid, whether its environment was hidden, denied or readable, and how many other
//! processes `/proc` showed it.

use std::ffi::OsString;
use std::process::ExitCode;

use super::{Isolation, Launch, Mode, Plan};

/// argv\[1\] of the probe that `--sandbox-check` runs as a command.
pub(super) const MODE: &str = "__sandbox-probe";

/// Inside the probe command: one line per pid in `pids`, then the count of the others.
pub(super) fn run_inside(pids: &[OsString]) -> ExitCode {
    let me = std::process::id().to_string();
    for pid in pids {
        let pid = pid.to_string_lossy();
        let seen = if pid == me {
            "self"
        } else {
            match std::fs::read(format!("/proc/{pid}/environ")) {
                Ok(_) => "readable",
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => "hidden",
                Err(_) => "denied",
            }
        };
        println!("{pid} {seen}");
    }
    let others = std::fs::read_dir("/proc").map_or(0, |entries| {
        entries
            .flatten()
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                name != me && !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_digit())
            })
            .count()
    });
    println!("others {others}");
    ExitCode::SUCCESS
}

/// What `--sandbox-check` says about other processes under `mode`.
pub(super) fn processes_line(mode: Mode) -> String {
    let Some(helper) = super::helper_program().and_then(|path| path.to_str()) else {
        return "massgen's own environment unreadable; its parents' are not (no helper \
                program: not probed)"
            .into();
    };
    // On a thread of its own: the caller may be inside a runtime already.
    let outcome = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| error.to_string())
            .and_then(|runtime| runtime.block_on(run_probe(helper, mode)))
    })
    .join()
    .unwrap_or_else(|_| Err("the probe thread failed".into()));
    let (isolation, seen) = match outcome {
        Ok(outcome) => outcome,
        Err(error) => return format!("not probed: {error}"),
    };
    let of = |pid: u32| {
        let pid = pid.to_string();
        seen.lines()
            .find_map(|line| line.strip_prefix(&format!("{pid} ")))
            .unwrap_or("unknown")
            .to_string()
    };
    let me = of(std::process::id());
    let parent = of(rustix::process::getppid().map_or(0, |pid| pid.as_raw_nonzero().get() as u32));
    let others = seen
        .lines()
        .find_map(|line| line.strip_prefix("others "))
        .unwrap_or("?");
    let probe = format!(
        "probe: massgen's environment {me}, its parent's {parent}, {others} other processes seen"
    );
    match isolation {
        _ if me == "readable" => format!(
            "NOT protected: commands can read massgen's environment, API keys included ({probe})"
        ),
        Isolation::PidNamespace if parent == "hidden" => {
            format!("own PID namespace: other processes invisible ({probe})")
        }
        Isolation::PidNamespace => format!("own PID namespace, yet ({probe})"),
        Isolation::Shared { reason } => format!(
            "massgen's own environment unreadable; its parents' are not ({reason}; {probe}); \
             not so for commands of a massgen run as root"
        ),
    }
}

async fn run_probe(helper: &str, mode: Mode) -> Result<(Isolation, String), String> {
    let workspace = std::env::temp_dir().join(format!("massgen-probe-{}", super::procs::new_key()));
    super::launch::make_private_dir(&workspace)
        .map_err(|error| format!("no probe dir {}: {error}", workspace.display()))?;
    let result = probe_in(helper, mode, workspace.clone()).await;
    let _ = std::fs::remove_dir_all(&workspace);
    result
}

async fn probe_in(
    helper: &str,
    mode: Mode,
    workspace: std::path::PathBuf,
) -> Result<(Isolation, String), String> {
    use tokio::io::AsyncReadExt;
    let parent = rustix::process::getppid().map_or(0, |pid| pid.as_raw_nonzero().get());
    let launch = Launch {
        program: helper.to_string(),
        args: vec![
            MODE.into(),
            std::process::id().to_string(),
            parent.to_string(),
        ],
        cwd: workspace.clone(),
        env: vec![("PATH", "/usr/bin:/bin".into())],
        extra_env: Vec::new(),
    };
    let plan = Plan {
        workspace,
        readable: vec![helper.into()],
        ..Plan::default()
    };
    let mut running = super::launch(launch, plan, mode)
        .await
        .map_err(|error| error.to_string())?;
    let mut seen = String::new();
    if let Some(mut stdout) = running.child.stdout.take() {
        let mut bytes = Vec::new();
        let _ = (&mut stdout).take(64 * 1024).read_to_end(&mut bytes).await;
        seen = String::from_utf8_lossy(&bytes).into_owned();
    }
    let _ = running.child.wait().await;
    running.end();
    Ok((running.isolation.clone(), seen))
}
