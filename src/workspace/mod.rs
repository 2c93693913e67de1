//! Per-agent workspaces: each agent with a `cwd` gets its own directory under
//! `.massgen/workspaces/` (a random suffix, so no agent learns who it is from a path), a
//! snapshot of it after every answer, and before every round a temporary workspace holding
//! every agent's latest snapshot under its anonymous name (`agent1/`, `agent2/`, …).

pub mod beneath;
mod copy;
mod layout;
pub mod memory;
mod prompt_paths;
pub mod skills;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::{RwLock, watch};

use copy::remove_tree;
pub use copy::{CopyReport, DEFAULT_MAX_FILE_BYTES, SKIPPED_DIRS, copy_tree, replace_tree};
pub use layout::{AgentDirs, ContextRootSpec, Layout};
pub use prompt_paths::{ParsedPrompt, parse_prompt};

use crate::config::Config;
use crate::protocol::AgentInfo;

/// How long a round waits for a peer's snapshot that is still being written.
const SNAPSHOT_WAIT: Duration = Duration::from_secs(120);

/// The run's workspaces, shared by the turn driver and the agents' rounds.
pub struct Workspaces {
    layout: Layout,
    agents: Vec<AgentSlot>,
    max_file_bytes: u64,
    /// The agent whose workspace holds the last turn's merged memories (its winner).
    memory_source: std::sync::Mutex<Option<usize>>,
}

struct AgentSlot {
    /// The agent's real id (MassGen names it in merged memories).
    id: String,
    /// Anonymous name of the agent's copy in its peers' temporary workspaces.
    anon: String,
    dirs: Option<AgentDirs>,
    /// Snapshots asked for (one per accepted answer) and finished; a round waits until
    /// every peer's finished count catches up, so it sees the work behind each answer.
    requested: AtomicU64,
    saved: watch::Sender<u64>,
    /// Held for writing while the snapshot is replaced and for reading while a round
    /// copies it, so no copy mixes two versions.
    snapshot_lock: Arc<RwLock<()>>,
}

impl Workspaces {
    /// Creates the directories of every agent that has a `cwd`, under
    /// `<project>/.massgen/`.
    pub fn create(project_dir: &Path, config: &Config, roster: &[AgentInfo]) -> io::Result<Self> {
        let layout = Layout::new(project_dir, &config.orchestrator);
        let mut agents = Vec::with_capacity(config.agents.len());
        for (agent, info) in config.agents.iter().zip(roster) {
            let dirs = match &agent.backend.tools.cwd {
                Some(cwd) => Some(layout.agent_dirs(&agent.id, cwd)?),
                None => None,
            };
            if let Some(dirs) = &dirs {
                // A snapshot left by an earlier run is not this run's work.
                remove_tree(&dirs.snapshot)?;
            }
            agents.push(AgentSlot {
                id: info.id.to_string(),
                anon: info.anon_id.to_string(),
                dirs,
                requested: AtomicU64::new(0),
                saved: watch::Sender::new(0),
                snapshot_lock: Arc::default(),
            });
        }
        Ok(Self {
            layout,
            agents,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            memory_source: std::sync::Mutex::new(None),
        })
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The agent's directories, if it has a workspace.
    pub fn dirs(&self, agent: usize) -> Option<&AgentDirs> {
        self.agents.get(agent)?.dirs.as_ref()
    }

    /// Each agent's workspace and the name its copy has in temporary workspaces.
    pub fn peers(&self) -> impl Iterator<Item = (&str, &AgentDirs)> {
        self.agents
            .iter()
            .filter_map(|slot| Some((slot.anon.as_str(), slot.dirs.as_ref()?)))
    }

    /// The agent's latest snapshot (its workspace as of its latest accepted answer), once
    /// every save asked for is written; `None` when it has none.
    pub async fn latest_snapshot(&self, agent: usize) -> Option<PathBuf> {
        let slot = self.agents.get(agent)?;
        let wanted = slot.requested.load(Ordering::Acquire);
        let mut saved = slot.saved.subscribe();
        let caught_up = tokio::time::timeout(SNAPSHOT_WAIT, saved.wait_for(|s| *s >= wanted));
        if caught_up.await.is_err() {
            tracing::warn!(
                agent = slot.anon,
                "a snapshot took too long; using the last one"
            );
        }
        let snapshot = slot.dirs.as_ref()?.snapshot.clone();
        snapshot.is_dir().then_some(snapshot)
    }

    /// Fills the agent's temporary workspace with every agent's latest snapshot, once the
    /// snapshots asked for so far are written.
    pub async fn prepare_round(self: Arc<Self>, agent: usize) -> io::Result<()> {
        let Some(temp) = self.dirs(agent).map(|dirs| dirs.temp.clone()) else {
            return Ok(());
        };
        for slot in &self.agents {
            let wanted = slot.requested.load(Ordering::Acquire);
            let mut saved = slot.saved.subscribe();
            let caught_up = tokio::time::timeout(SNAPSHOT_WAIT, saved.wait_for(|s| *s >= wanted));
            if caught_up.await.is_err() {
                tracing::warn!(
                    peer = slot.anon,
                    "a peer's snapshot took too long; using the last one"
                );
            }
        }
        // Read locks in agent order: a writer needs only its own, so none can wait in a cycle.
        let mut guards = Vec::with_capacity(self.agents.len());
        for slot in &self.agents {
            guards.push(Arc::clone(&slot.snapshot_lock).read_owned().await);
        }
        let sources: Vec<(String, PathBuf)> = self
            .agents
            .iter()
            .filter_map(|slot| Some((slot.anon.clone(), slot.dirs.as_ref()?.snapshot.clone())))
            .collect();
        let max = self.max_file_bytes;
        blocking(move || {
            let _guards = guards;
            std::fs::create_dir_all(&temp)?;
            let mut first_error = None;
            for (anon, snapshot) in sources {
                let copy = temp.join(&anon);
                let copied = if snapshot.is_dir() {
                    replace_tree(&snapshot, &copy, max).map(|_| ())
                } else {
                    remove_tree(&copy)
                };
                if let Err(error) = copied {
                    tracing::warn!(peer = anon, %error, "a peer's snapshot could not be copied");
                    first_error.get_or_insert(error);
                }
            }
            first_error.map_or(Ok(()), Err)
        })
        .await
    }

    /// Marks that the agent's workspace must be saved (call as its answer is accepted);
    /// the returned future saves it. `None` when the agent has no workspace.
    pub fn request_snapshot(
        self: &Arc<Self>,
        agent: usize,
    ) -> Option<impl Future<Output = io::Result<CopyReport>> + Send + 'static> {
        let slot = self.agents.get(agent)?;
        let dirs = slot.dirs.clone()?;
        let generation = slot.requested.fetch_add(1, Ordering::AcqRel) + 1;
        let lock = Arc::clone(&slot.snapshot_lock);
        let this = Arc::clone(self);
        Some(async move {
            let max = this.max_file_bytes;
            let guard = lock.write_owned().await;
            let copied = blocking(move || {
                let _guard = guard;
                replace_tree(&dirs.workspace, &dirs.snapshot, max)
            })
            .await;
            if let Some(slot) = this.agents.get(agent) {
                slot.saved
                    .send_modify(|saved| *saved = (*saved).max(generation));
            }
            copied
        })
    }

    /// Forgets every snapshot (a new turn starts): rounds see only this turn's work of
    /// their peers.
    pub async fn clear_snapshots(self: Arc<Self>) -> io::Result<()> {
        let mut guards = Vec::with_capacity(self.agents.len());
        for slot in &self.agents {
            guards.push(Arc::clone(&slot.snapshot_lock).write_owned().await);
        }
        let snapshots: Vec<PathBuf> = self
            .agents
            .iter()
            .filter_map(|slot| Some(slot.dirs.as_ref()?.snapshot.clone()))
            .collect();
        blocking(move || {
            let _guards = guards;
            snapshots
                .iter()
                .try_for_each(|snapshot| remove_tree(snapshot))
        })
        .await
    }

    /// Copies the winner's workspace to `<log_dir>/final/<winner>/workspace/`.
    pub async fn save_final(
        self: Arc<Self>,
        winner: usize,
        winner_id: String,
        log_dir: PathBuf,
    ) -> io::Result<Option<CopyReport>> {
        let to = log_dir.join("final").join(winner_id).join("workspace");
        self.save_copy(winner, to).await
    }

    /// Replaces `to` with a copy of the agent's workspace; `None` if it has none.
    pub async fn save_copy(
        self: Arc<Self>,
        agent: usize,
        to: PathBuf,
    ) -> io::Result<Option<CopyReport>> {
        let Some(workspace) = self.dirs(agent).map(|dirs| dirs.workspace.clone()) else {
            return Ok(None);
        };
        let max = self.max_file_bytes;
        blocking(move || replace_tree(&workspace, &to, max).map(Some)).await
    }
}

/// Memory files an agent sees in its round: its own, and every agent's in its temporary
/// workspace (anonymous name, name order), as MassGen shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryView {
    pub own: Vec<memory::MemoryFile>,
    pub peers: Vec<(String, Vec<memory::MemoryFile>)>,
}

impl Workspaces {
    /// A turn starts in memory mode: every workspace gets `memory/short_term/` and
    /// `memory/long_term/`, and the last turn's winner's memories (merged from every agent)
    /// are copied into every other agent's workspace.
    pub async fn begin_memory_turn(self: Arc<Self>) -> io::Result<()> {
        let source = self
            .memory_source
            .lock()
            .map_or(None, |source| *source)
            .and_then(|index| self.dirs(index).map(|dirs| (index, dirs.workspace.clone())));
        let targets: Vec<(usize, PathBuf)> = self
            .agents
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| Some((index, slot.dirs.as_ref()?.workspace.clone())))
            .collect();
        blocking(move || {
            for (index, workspace) in &targets {
                memory::create_dirs(workspace)?;
                if let Some((source, from)) = &source
                    && source != index
                {
                    memory::restore(from, workspace)?;
                }
            }
            Ok(())
        })
        .await
    }

    /// MassGen's merge before the final presentation: every other agent's memories go into
    /// the winner's workspace, which the next turn starts from. Returns how many files.
    pub async fn merge_memories(self: Arc<Self>, winner: usize) -> io::Result<usize> {
        let Some(to) = self.dirs(winner).map(|dirs| dirs.workspace.clone()) else {
            return Ok(0);
        };
        if let Ok(mut source) = self.memory_source.lock() {
            *source = Some(winner);
        }
        let peers: Vec<(String, PathBuf)> = self
            .agents
            .iter()
            .enumerate()
            .filter(|(index, _)| *index != winner)
            .filter_map(|(_, slot)| Some((slot.id.clone(), slot.dirs.as_ref()?.workspace.clone())))
            .collect();
        blocking(move || {
            let mut merged = 0;
            for (peer, from) in &peers {
                merged += memory::merge_into(&to, peer, from)?;
            }
            Ok(merged)
        })
        .await
    }

    /// The memories the agent's round is shown: call after [`Workspaces::prepare_round`].
    pub async fn memory_view(self: Arc<Self>, agent: usize) -> io::Result<MemoryView> {
        let Some(dirs) = self.dirs(agent).cloned() else {
            return Ok(MemoryView::default());
        };
        let mut anons: Vec<String> = self.peers().map(|(anon, _)| anon.to_string()).collect();
        anons.sort();
        blocking(move || {
            let own = memory::read_all(&dirs.workspace)?;
            let mut peers = Vec::new();
            for anon in anons {
                let files = memory::read_all(&dirs.temp.join(&anon))?;
                if !files.is_empty() {
                    peers.push((anon, files));
                }
            }
            Ok(MemoryView { own, peers })
        })
        .await
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(io::Error::other(error)))
}

#[cfg(test)]
mod tests;
