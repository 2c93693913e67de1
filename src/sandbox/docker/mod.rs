//! `command_line_execution_mode: docker`: each agent's commands run in a container of its
//! own through the `docker` client — started once per agent and run with its paths
//! mounted, one `docker exec` per command, removed when the agent's tools go or massgen
//! exits. Whether a daemon answers is asked once (`docker info`) and remembered.

mod container;
mod environment;
mod spec;

use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use container::{Container, Exec, remove_all, start};
pub use environment::container_spec;
pub use spec::{ContainerSpec, Mount, exec_args, kill_args, preinstall_commands, remove_args};

/// How long `docker info` may take to say whether a daemon answers.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a Docker daemon answers here; asked on the first call only.
pub fn daemon_answers() -> bool {
    static ANSWERS: OnceLock<bool> = OnceLock::new();
    *ANSWERS.get_or_init(|| {
        let answers = probe();
        tracing::info!(answers, "docker daemon probed with `docker info`");
        answers
    })
}

fn probe() -> bool {
    let child = std::process::Command::new(container::PROGRAM)
        .args(["info", "--format", "{{.ServerVersion}}"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.success(),
            Ok(None) if started.elapsed() < PROBE_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

/// A container name for the agent whose workspace is `workspace`, unique to this process
/// (MassGen's `massgen-<agent>-<instance>`; the workspace's random name stands for the
/// agent, whose id commands never see).
pub fn container_name(workspace: &std::path::Path) -> String {
    static INSTANCE: OnceLock<String> = OnceLock::new();
    let instance = INSTANCE.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.subsec_nanos());
        format!("{:08x}", std::process::id() ^ nanos)
    });
    let agent: String = workspace
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' {
                ch
            } else {
                '_'
            }
        })
        .collect();
    format!("massgen-{agent}-{instance}")
}
