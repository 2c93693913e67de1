//! Every command alive in this process, and how one is ended with all it started: its
//! process group, its descendants, and processes that left both (`setsid`, double fork,
//! `nohup`), found through a marker in their environment or, when they dropped it, as
//! orphans with `no_new_privs` that massgen adopted as child subreaper.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that marks every process a command starts.
pub(super) const MARKER: &str = "MASSGEN_COMMAND";

struct Entry {
    key: String,
    leader: Option<i32>,
    workspace: PathBuf,
}

static LIVE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);

fn live() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A fresh marker value: this process's id and a counter.
pub(super) fn new_key() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// Runs `spawn` and registers what it started under `key`, holding the registry so that no
/// sweep mistakes the fresh child for an orphan before it is registered.
pub(super) fn spawn_registered<T>(
    key: &str,
    workspace: &Path,
    spawn: impl FnOnce() -> std::io::Result<(T, Option<u32>)>,
) -> std::io::Result<T> {
    adopt_orphans();
    let mut live = live();
    let (spawned, pid) = spawn()?;
    live.push(Entry {
        key: key.to_string(),
        leader: pid.and_then(|pid| i32::try_from(pid).ok()),
        workspace: workspace.to_path_buf(),
    });
    Ok(spawned)
}

/// Kills the command registered as `key` and everything it started, then forgets it.
pub(super) fn end(key: &str) {
    let leader = live()
        .iter()
        .find(|entry| entry.key == key)
        .map(|entry| entry.leader);
    if let Some(leader) = leader {
        sweep(key, leader);
    }
    live().retain(|entry| entry.key != key);
}

/// Ends every command running in `root` or below it (an agent's workspace): at the end of
/// a turn.
pub fn end_commands_in(root: &Path) {
    let keys: Vec<String> = live()
        .iter()
        .filter(|entry| entry.workspace.starts_with(root))
        .map(|entry| entry.key.clone())
        .collect();
    keys.iter().for_each(|key| end(key));
}

/// Ends every command of this process: when massgen exits.
pub fn end_all_commands() {
    let keys: Vec<String> = live().iter().map(|entry| entry.key.clone()).collect();
    keys.iter().for_each(|key| end(key));
}

/// Makes massgen the child subreaper (Linux), so processes a command orphans stay its
/// descendants instead of moving to init, where they could not be told apart.
fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            if let Err(error) =
                rustix::process::set_child_subreaper(Some(rustix::process::getpid()))
            {
                tracing::warn!(%error, "could not become child subreaper; commands' orphans \
                    are found by their marker only");
            }
        });
    }
}

/// Whether massgen is the child subreaper (Linux), for `--sandbox-check`.
pub(super) fn adopts_orphans() -> bool {
    adopt_orphans();
    #[cfg(target_os = "linux")]
    {
        rustix::process::child_subreaper().ok().flatten().is_some()
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// Whether the calling thread runs with `no_new_privs`.
pub(super) fn thread_has_no_new_privs() -> bool {
    #[cfg(target_os = "linux")]
    {
        table::no_new_privs_of("/proc/thread-self/status")
    }
    #[cfg(not(target_os = "linux"))]
    false
}

#[cfg(not(unix))]
fn sweep(_key: &str, _leader: Option<i32>) {}

#[cfg(unix)]
fn sweep(key: &str, leader: Option<i32>) {
    use rustix::process::{Pid, Signal, kill_process_group};
    if let Some(group) = leader.and_then(Pid::from_raw) {
        // Fails harmlessly when the group has already gone.
        let _ = kill_process_group(group, Signal::KILL);
    }
    #[cfg(target_os = "linux")]
    table::sweep_descendants(key, leader, &|| {
        live()
            .iter()
            .map(|entry| (entry.key.clone(), entry.leader))
            .collect()
    });
    #[cfg(not(target_os = "linux"))]
    let _ = key;
}

#[cfg(target_os = "linux")]
mod table;
